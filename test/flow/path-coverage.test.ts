/**
 * Generated path tests: every simple path from the initial state to a final state of every registered machine
 * (configured with app guards at its extension points) is replayed through the real `runFlow()` runtime with effect
 * doubles, and its outcome is checked: a session issued after the signIn callback, or the error the spec names.
 * A gate then requires every declared transition to be taken, and the figures go to test-artifacts/path-coverage.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { machineConventions, type MachineEntry } from '../../machines/machine-entry.js'
import type { ErrorType } from '../../src/errors.js'
import { describeEntry } from '../../visualizations/describe-machine.js'
import {
  activeStatePaths,
  configuredRegistry,
  deniedDomain,
  finalPathsOf,
  pathName,
  simplePathsOf,
  type FlowPath,
} from './flow-paths.js'
import { replayPath } from './path-replay.js'
import { declaredTransitions, transitionName, transitionsTaken } from './transition-coverage.js'
import { challengeStates } from './flow-invariants.js'
import { secondFactorWalkEntry } from './fixtures/second-factor-walk.js'

/** What the spec says a failure must be reported as, by the event that ended the flow. */
const specErrorAfter: Record<string, ErrorType> = {
  SIGNIN_DENIED: 'AccessDenied', // signIn callback returned false
  SIGNIN_FAILED: 'AccessDenied', // signIn callback threw: AccessDenied carrying the original message
  AUTHORIZE_REJECTED: 'CredentialsSignin', // authorize() returned null or threw CredentialsSignin
  REDIRECT_FAILED: 'InvalidCallbackUrl',
}

function withoutNulls(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (_, v: unknown) => (v === null ? undefined : v)))
}

/**
 * The error the last event must produce, when the spec or the app's guard decides it: an app guard that refuses
 * its user on the event it guards means AccessDenied; an event that carries its error must leave exactly that one.
 */
function expectedError(entry: MachineEntry, path: FlowPath): ErrorType | undefined {
  const last = path.steps.at(-1)!.event as { type: string; csrfVerified?: unknown; error?: unknown }
  if (last.csrfVerified === false) return 'MissingCSRF'
  // The spec's linking rules come before any app guard: an e-mail match links only with dangerous linking allowed,
  // and a known account never moves to another signed-in user.
  const context = path.state.context as { dangerousEmailLinking?: boolean }
  const found = last as { ownerId?: unknown; signedInUserId?: unknown }
  if (last.type === 'EMAIL_MATCHED' && context.dangerousEmailLinking !== true) return 'OAuthAccountNotLinked'
  // A passkey account that never proved its address is not entered by address, whatever the app's guards say.
  if ((last as { unprovenPasskeyAccount?: unknown }).unprovenPasskeyAccount === true) return 'OAuthAccountNotLinked'
  if (last.type === 'ACCOUNT_FOUND' && found.signedInUserId !== undefined && found.signedInUserId !== found.ownerId)
    return 'OAuthAccountNotLinked'
  const email = (path.state.context as { user?: { email?: unknown } }).user?.email
  const refusedBy = describeEntry(entry)
    .transitions.filter((t) => t.event === last.type)
    .flatMap((t) => t.guard?.refs.filter((r) => r.origin === 'app') ?? [])
    .some((r) => typeof email === 'string' && email.endsWith(`@${deniedDomain(r.name)}`))
  if (refusedBy) return 'AccessDenied'
  if (typeof last.error === 'string') return last.error as ErrorType
  return specErrorAfter[last.type]
}

interface MachineReport {
  machine: string
  version: number
  simplePaths: number
  pathsToFinalStates: number
  byFinalState: Record<string, number>
  transitions: number
  covered: number
  uncovered: string[]
}
const reports: MachineReport[] = []

afterAll(() => {
  if (reports.length === 0) return
  const totals = reports.reduce(
    (t, r) => ({
      paths: t.paths + r.pathsToFinalStates,
      transitions: t.transitions + r.transitions,
      covered: t.covered + r.covered,
    }),
    { paths: 0, transitions: 0, covered: 0 },
  )
  const rows = reports.map(
    (r) =>
      `${r.machine.padEnd(12)} ${String(r.pathsToFinalStates).padStart(6)} ${String(r.transitions).padStart(12)} ${String(r.covered).padStart(8)} ${((100 * r.covered) / r.transitions).toFixed(1).padStart(7)}%`,
  )
  console.log(
    [
      'path coverage (configured machines, paths to final states):',
      'machine       paths  transitions  covered  percent',
      ...rows,
      `${'total'.padEnd(12)} ${String(totals.paths).padStart(6)} ${String(totals.transitions).padStart(12)} ${String(totals.covered).padStart(8)} ${((100 * totals.covered) / totals.transitions).toFixed(1).padStart(7)}%`,
    ].join('\n'),
  )
  mkdirSync(resolve('test-artifacts'), { recursive: true })
  writeFileSync(
    resolve('test-artifacts/path-coverage.json'),
    `${JSON.stringify({ machines: reports, totals }, null, 2)}\n`,
  )
})

/**
 * The challenge's transitions, as the walk of the completion on its own takes them: a sign-in machine's walk answers
 * the check with "no factor" only (fixtures/path-alphabets.ts), and graph-invariants.test.ts proves each machine's
 * challenge is this one, so these count as taken in every machine.
 */
const challengeTaken = new Set(
  [...transitionsTaken(secondFactorWalkEntry.machine, finalPathsOf(secondFactorWalkEntry))].map(transitionName),
)
const inChallenge = (name: string) => challengeStates.some((state) => name.startsWith(`${state} --`))

for (const entry of [...Object.values(configuredRegistry), secondFactorWalkEntry]) {
  describe(`${entry.id} machine: every path to a final state`, () => {
    const paths = finalPathsOf(entry)

    it('has paths to every final state of the definition', () => {
      const finals = describeEntry(entry)
        .states.filter((s) => s.type === 'final')
        .map((s) => s.path)
      const reached = new Set(paths.map((p) => activeStatePaths(p.state.value).at(-1)))
      expect([...reached].sort()).toEqual([...finals].sort())
    })

    it.each(paths.map((p, i) => [pathName(entry, p), i] as const))('%s', async (_, index) => {
      const path = paths[index]
      const replay = await replayPath(entry, path, `path-${index}`)
      const { final } = replay

      // The runtime walks the same states the graph predicted, and ends where the path ends.
      // The runtime names a state by its leaf's dotted path (`completingSignIn.issuingSession`).
      expect(replay.audit.map((r) => r.to)).toEqual(
        path.steps.slice(1).map((s) => activeStatePaths(s.state.value).at(-1)),
      )
      expect(final.value).toEqual(activeStatePaths(path.state.value).at(-1))
      expect(withoutNulls(final.context)).toEqual(withoutNulls(path.state.context))
      expect(final.status).toBe('done')

      // Every request but the last stops where the browser must act; the last leaves nothing behind.
      for (const request of replay.requests.slice(0, -1)) {
        expect(request.status).toBe('active')
        expect([...request.tags]).toContain(machineConventions.awaitingBrowserTag)
        expect(request.ref).not.toBeNull()
      }
      expect(final.ref).toBeNull()
      expect(replay.store.size).toBe(0)

      // The outcome: a session is issued exactly on the signedIn paths, and only after the signIn callback.
      const commandTypes = replay.commands.map((c) => c.type)
      const error = final.context.error as ErrorType | undefined
      const issued = replay.commands.some(
        (c) => c.type === machineConventions.issueSessionCommand && !/FAIL/.test(c.answer.type),
      )
      if (activeStatePaths(final.value).includes('signedIn')) {
        expect(issued).toBe(true)
        expect(commandTypes.indexOf(machineConventions.signInCommand)).toBeGreaterThanOrEqual(0)
        expect(commandTypes.indexOf(machineConventions.signInCommand)).toBeLessThan(
          commandTypes.indexOf(machineConventions.issueSessionCommand),
        )
      }
      if (activeStatePaths(final.value).includes('failed')) {
        expect(error).toBeTypeOf('string')
        const expected = expectedError(entry, path)
        if (expected) expect(error).toBe(expected)
      } else {
        expect(error).toBeUndefined()
      }

      // The audit trail: one record per transition, with only the documented fields, and no event payload.
      for (const record of replay.audit) {
        expect(Object.keys(record).sort()).toEqual(['at', 'event', 'flowId', 'from', 'machine', 'to'])
        expect(record).toMatchObject({ flowId: `path-${index}`, machine: entry.id })
      }
      expect(replay.audit.map((r) => r.event)).toEqual(path.steps.slice(1).map((s) => s.event.type))
    })

    it('takes every declared transition (coverage gate)', () => {
      const declared = declaredTransitions(entry.machine)
      const taken = transitionsTaken(entry.machine, paths)
      const uncovered = declared
        .filter((t) => !taken.has(t))
        .map(transitionName)
        .filter((name) => !(inChallenge(name) && challengeTaken.has(name)))
      const byFinalState: Record<string, number> = {}
      for (const p of paths) {
        const end = activeStatePaths(p.state.value).at(-1)!
        byFinalState[end] = (byFinalState[end] ?? 0) + 1
      }
      reports.push({
        machine: entry.id,
        version: entry.version,
        simplePaths: simplePathsOf(entry).length,
        pathsToFinalStates: paths.length,
        byFinalState,
        transitions: declared.length,
        covered: declared.length - uncovered.length,
        uncovered,
      })
      expect(uncovered).toEqual([])
    })

    if (entry.extensionPoints.length > 0)
      it('reaches both answers of every extension point, through the app’s guards', () => {
        for (const name of entry.extensionPoints) {
          const denied = paths.filter((p) => {
            const user = (p.state.context as { user?: { email?: unknown } }).user
            return (
              typeof user?.email === 'string' &&
              user.email.endsWith(`@${deniedDomain(name)}`) &&
              (p.state.context as { error?: unknown }).error === 'AccessDenied'
            )
          })
          expect(denied.length, `${name} denies on some path`).toBeGreaterThan(0)
        }
        expect(paths.some((p) => activeStatePaths(p.state.value).includes('signedIn'))).toBe(true)
      })
  })
}
