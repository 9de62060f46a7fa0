/**
 * Which XState API to run per request: the pure `transition` family (what src/flow/step.ts uses) or an actor per
 * request. Both drive the credentials machine through a whole sign-in with instant effects, so only the cost of the
 * machine runtime is measured.
 */
import { createActor, type AnyMachineSnapshot } from 'xstate'
import { credentialsMachine, type CredentialsEvent } from '../machines/credentials.js'
import { drive, initialSnapshot, type EffectHandlers } from '../src/flow/step.js'
import { measure } from './measure.js'

const user = { id: 'u1', name: 'Ada', email: 'ada@example.com' }
const results: Record<string, CredentialsEvent> = {
  runRedirectCallback: { type: 'REDIRECT_RESOLVED', url: 'http://localhost:3000/' },
  authorize: { type: 'AUTHORIZED', user },
  runSignInCallback: { type: 'SIGNIN_ALLOWED' },
  issueSession: { type: 'SESSION_ISSUED' },
  emitSignInEvent: { type: 'SIGNIN_ANNOUNCED' },
}
const effects: EffectHandlers = Object.fromEntries(Object.entries(results).map(([k, v]) => [k, async () => ({ ...v })]))
const start: CredentialsEvent = { type: 'CREDENTIALS_SUBMITTED', providerId: 'credentials', callbackUrl: '/', csrfVerified: true, now: 1 }

async function withPureTransition(): Promise<AnyMachineSnapshot> {
  return drive(credentialsMachine, initialSnapshot(credentialsMachine), start, effects)
}

// The actor variant: commands are collected by action implementations provided once (provide() costs ~50 µs).
// The collector is shared, which is only safe here because the benchmark runs one flow at a time: a server would
// need a provide() per request (another ~50 µs) or its own routing of commands to requests.
const pending: string[] = []
const collect = (type: string) => () => { pending.push(type) }
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
    actor.send(await Promise.resolve({ ...(results[command] as CredentialsEvent) }))
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
  console.log('\n## XState per request: a whole credentials flow (5 commands), instant effects')
  console.log(`| API | µs per flow |\n|---|---:|\n| pure transition() | ${pure.microsPerOp.toFixed(1)} |\n| actor per request | ${actor.microsPerOp.toFixed(1)} |`)
  return { pureMicros: pure.microsPerOp, actorMicros: actor.microsPerOp }
}
