/**
 * Graph invariants, checked on every registered machine (as shipped and as configured with app guards) and, as a
 * control, on a machine that breaks each of them.
 */
import { describe, expect, it } from 'vitest'
import { machineRegistry } from '../../machines/index.js'
import { describeEntry } from '../../visualizations/describe-machine.js'
import { configuredRegistry, simplePathsOf } from './flow-paths.js'
import {
  challengeSubgraph,
  errorsOutsideSpec,
  redirectsOutsideCallback,
  sessionBeforeSignInOnPaths,
  sessionWithoutChallengeOnPaths,
  sessionWithoutSecondFactorCheck,
  sessionWithoutSignIn,
  statesThatKeepAFlow,
} from './flow-invariants.js'
import { brokenEntry } from './fixtures/broken-machine.js'
import { skipsChallengeEntry, skipsCheckEntry } from './fixtures/broken-second-factor.js'
import { secondFactorWalkEntry } from './fixtures/second-factor-walk.js'
import { pathEventsOf } from './fixtures/path-alphabets.js'

const entries = [
  ...Object.values(machineRegistry).map((e) => [`${e.id} (as shipped)`, e] as const),
  ...Object.values(configuredRegistry)
    .filter((e) => e !== machineRegistry[e.id])
    .map((e) => [`${e.id} (with app guards)`, e] as const),
]

describe.each(entries)('%s', (_, entry) => {
  const paths = simplePathsOf(entry)

  it('issues no session on a path that skips the signIn callback', () => {
    expect(sessionWithoutSignIn(entry)).toEqual([])
    expect(sessionBeforeSignInOnPaths(entry, paths)).toEqual([])
  })

  it('issues no session on a path that skips the second-factor check, nor for an enrolled user without a passed challenge', () => {
    expect(sessionWithoutSecondFactorCheck(entry)).toEqual([])
    expect(sessionWithoutChallengeOnPaths(entry, paths)).toEqual([])
    // A machine that issues sessions composes the challenge exactly as the completion walked below defines it.
    if (challengeSubgraph(entry).length > 0)
      expect(challengeSubgraph(entry)).toEqual(challengeSubgraph(secondFactorWalkEntry))
  })

  it('clears the stored flow in every final state, and never stops in a state nobody resumes', () => {
    expect(statesThatKeepAFlow(entry)).toEqual([])
  })

  it('redirects only where the redirect callback decided', () => {
    expect(redirectsOutsideCallback(entry, paths)).toEqual([])
    // The check has teeth only if the callback's answer differs from every URL the browser sent.
    const answered = pathEventsOf(entry)
      .filter((e) => e.type === 'REDIRECT_RESOLVED')
      .map((e) => (e as { url?: unknown }).url)
    const sent = pathEventsOf(entry).flatMap((e) => [
      (e as { callbackUrl?: unknown }).callbackUrl,
      e.type === 'SIGNIN_REDIRECTED' ? (e as { url?: unknown }).url : undefined,
    ])
    for (const url of answered) expect(sent).not.toContain(url)
  })

  it('maps every error state to one of the spec’s error values', () => {
    expect(errorsOutsideSpec(entry, paths)).toEqual([])
  })

  it('names every guard (no anonymous inline guard)', () => {
    for (const t of describeEntry(entry).transitions) {
      for (const ref of t.guard?.refs ?? []) expect(ref.name, `${entry.id} ${t.id}`).not.toBe('anonymous')
    }
  })
})

describe('the invariant checks, on a machine that breaks them (control)', () => {
  const paths = simplePathsOf(brokenEntry)

  it('finds the session issued without the signIn callback', () => {
    expect(sessionWithoutSignIn(brokenEntry)).toEqual([
      'broken: issuingSession issues a session on a path that skips the signIn callback',
    ])
    expect(sessionBeforeSignInOnPaths(brokenEntry, paths)).toContain(
      'broken: xstate.init › STARTED issues a session before the signIn callback',
    )
  })

  it('finds the final state that waits and the state in limbo', () => {
    expect(statesThatKeepAFlow(brokenEntry)).toEqual([
      'broken: parked neither waits for the browser nor runs a command',
      'broken: final state waitingForever is tagged awaitingBrowser',
    ])
  })

  it('finds the redirect the callback never decided', () => {
    expect(redirectsOutsideCallback(brokenEntry, paths)).toEqual([
      'broken: issuingSession --SESSION_ISSUED--> redirected without the redirect callback',
      'broken: xstate.init › STARTED › SESSION_ISSUED ends redirecting to https://evil.test/, which the redirect callback never answered',
      'broken: xstate.init › STARTED › PARKED › SESSION_ISSUED ends redirecting to https://evil.test/, which the redirect callback never answered',
    ])
  })

  it('finds the error type outside the spec', () => {
    const found = errorsOutsideSpec(brokenEntry, paths)
    expect(found).toContain(
      'broken: issuingSession --SESSION_FAILED--> sets error SomethingWentWrong, which is no AuthError type',
    )
    expect(found).toContain(
      'broken: xstate.init › STARTED › SESSION_FAILED → failed sets error SomethingWentWrong, which is no AuthError type',
    )
  })
})

describe('the second-factor challenge, walked once on the completion with every answer', () => {
  const paths = simplePathsOf(secondFactorWalkEntry)

  it('issues a session to an enrolled user only after a passed challenge, and keeps the other invariants', () => {
    expect(sessionWithoutSecondFactorCheck(secondFactorWalkEntry)).toEqual([])
    expect(sessionWithoutChallengeOnPaths(secondFactorWalkEntry, paths)).toEqual([])
    expect(sessionBeforeSignInOnPaths(secondFactorWalkEntry, paths)).toEqual([])
    expect(statesThatKeepAFlow(secondFactorWalkEntry)).toEqual([])
    expect(redirectsOutsideCallback(secondFactorWalkEntry, paths)).toEqual([])
    expect(errorsOutsideSpec(secondFactorWalkEntry, paths)).toEqual([])
  })

  it('reaches a session through each factor, and the end of a challenge through each limit', () => {
    const ends = paths.filter((p) => p.state.status === 'done').map((p) => p.steps.map((s) => s.event))
    const verified = (factor: string) =>
      ends.some((events) =>
        events.some((e) => e.type === 'FACTOR_VERIFIED' && (e as { factor?: unknown }).factor === factor),
      )
    expect(verified('otp') && verified('recovery') && verified('webauthn')).toBe(true)
    const refusals = new Set(paths.map((p) => (p.state.context as { refusal?: unknown }).refusal))
    expect(refusals).toContain('second-factor-limit')
    expect(refusals).toContain('flow-expired')
  })
})

describe('the second-factor checks, on machines that skip the challenge (control)', () => {
  it('finds the method step that goes to the session past the check', () => {
    expect(sessionWithoutSecondFactorCheck(skipsCheckEntry)).toEqual([
      'skipsCheck: completingSignIn.issuingSession issues a session on a path that skips the second-factor check',
    ])
    expect(challengeSubgraph(skipsCheckEntry)).toEqual(challengeSubgraph(secondFactorWalkEntry))
  })

  it('finds the enrolled user sent to the session without a challenge', () => {
    const found = sessionWithoutChallengeOnPaths(skipsChallengeEntry, simplePathsOf(skipsChallengeEntry))
    expect(found).toContain(
      'skipsChallenge: xstate.init › USER_KNOWN › REDIRECT_RESOLVED › SIGNIN_ALLOWED › SECOND_FACTOR_CHECKED › SESSION_ISSUED issues a session for a user with an enrolled factor without a passed challenge',
    )
    expect(challengeSubgraph(skipsChallengeEntry)).not.toEqual(challengeSubgraph(secondFactorWalkEntry))
  })
})
