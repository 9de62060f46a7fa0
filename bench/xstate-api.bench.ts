/**
 * How to execute a machine per request: xstate's pure `transition()`, an actor per request, or the compiled
 * transition table the runtime uses (src/flow/compiled-machine.ts). Each drives the credentials machine through a
 * whole sign-in with instant effects, so only the cost of executing the machine is measured.
 */
import { createActor, initialTransition, transition, type AnyMachineSnapshot } from 'xstate'
import { credentialsEntry } from '../machines/index.js'
import { credentialsMachine, type CredentialsEvent } from '../machines/credentials.js'
import { runFlow, type EffectHandlers } from '../src/flow/runtime.js'
import { measure } from './measure.js'

const user = { id: 'u1', name: 'Ada', email: 'ada@example.com' }
const results: Record<string, CredentialsEvent> = {
  runRedirectCallback: { type: 'REDIRECT_RESOLVED', url: 'http://localhost:3000/' },
  reserveAttempt: { type: 'ATTEMPT_RESERVED', retryAfterSeconds: 0, accountFailures: 1, clientFailures: 1 },
  authorize: { type: 'AUTHORIZED', user },
  clearFailures: { type: 'FAILURES_CLEARED' },
  runSignInCallback: { type: 'SIGNIN_ALLOWED' },
  issueSession: { type: 'SESSION_ISSUED' },
  emitSignInEvent: { type: 'SIGNIN_ANNOUNCED' },
}
const effects: EffectHandlers = Object.fromEntries(Object.entries(results).map(([k, v]) => [k, async () => ({ ...v })]))
const start: CredentialsEvent = {
  type: 'CREDENTIALS_SUBMITTED',
  providerId: 'credentials',
  callbackUrl: '/',
  csrfVerified: true,
  now: 1,
  maxFailures: 5,
  maxClientFailures: 50,
  lockoutSeconds: 900,
  accountReadable: true,
  knownDevice: false,
}

const initial = initialTransition(credentialsMachine)[0]

async function withPureTransition(): Promise<AnyMachineSnapshot> {
  let [snapshot, actions] = transition(credentialsMachine, initial, start)
  // As the runtime does: one scratch per run, shared by its handlers.
  const scratch = {}
  for (;;) {
    const command = actions.find((a) => !a.type.startsWith('xstate.'))
    if (!command) return snapshot
    const answer = (await effects[command.type](command.params ?? {}, scratch)) as CredentialsEvent
    ;[snapshot, actions] = transition(credentialsMachine, snapshot, answer)
  }
}

async function withCompiledRuntime(): Promise<unknown> {
  return runFlow({ entry: credentialsEntry, event: start, handlers: effects, now: 1 })
}

// The actor variant: commands are collected by action implementations provided once (provide() costs ~50 µs).
// The collector is shared, which is only safe here because the benchmark runs one flow at a time: a server would
// need a provide() per request (another ~50 µs) or its own routing of commands to requests.
const pending: string[] = []
const collect = (type: string) => () => {
  pending.push(type)
}
const actorMachine = credentialsMachine.provide({
  actions: Object.fromEntries(Object.keys(results).map((type) => [type, collect(type)])),
})

async function withActor(): Promise<unknown> {
  pending.length = 0
  const actor = createActor(actorMachine)
  actor.start()
  actor.send(start)
  while (pending.length > 0 && actor.getSnapshot().status === 'active') {
    const command = pending.shift() as string
    actor.send(await Promise.resolve({ ...results[command] }))
  }
  const status = actor.getSnapshot().status
  actor.stop()
  return status
}

/** Measures both and prints µs per sign-in flow. */
export async function runXStateApiBench(options: { quick?: boolean } = {}): Promise<Record<string, number>> {
  const opsPerRound = options.quick ? 200 : 2000
  const pure = await measure('transition()', withPureTransition, { opsPerRound })
  const actor = await measure('actor', withActor, { opsPerRound })
  const compiled = await measure('compiled runtime', withCompiledRuntime, { opsPerRound })
  console.log('\n## Executing a machine per request: a whole credentials flow (5 commands), instant effects')
  console.log(
    `| execution | µs per flow |\n|---|---:|\n| xstate pure transition() | ${pure.microsPerOp.toFixed(1)} |\n| xstate actor per request | ${actor.microsPerOp.toFixed(1)} |\n| compiled table (runFlow) | ${compiled.microsPerOp.toFixed(1)} |`,
  )
  return { pureMicros: pure.microsPerOp, actorMicros: actor.microsPerOp, compiledMicros: compiled.microsPerOp }
}
