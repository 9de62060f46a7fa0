/**
 * Security checks are inline guards: an app (or anything else) calling provide() with their names changes nothing,
 * and TypeScript refuses the names outright.
 */
import { initialTransition, transition } from 'xstate'
import { describe, expect, it } from 'vitest'
import { credentialsMachine } from '../../machines/credentials.js'
import { oauthMachine } from '../../machines/oauth.js'

describe('inline security guards', () => {
  it('a CSRF failure stays a failure even after provide({ guards: { isCsrfVerified } })', () => {
    const tampered = credentialsMachine.provide({
      // @ts-expect-error isCsrfVerified is not a named guard of the machine: that is the point of this test
      guards: { isCsrfVerified: () => true },
    })
    const [next] = transition(tampered, initialTransition(tampered)[0], {
      type: 'CREDENTIALS_SUBMITTED',
      providerId: 'c',
      callbackUrl: '/',
      csrfVerified: false,
      maxFailures: 5,
      maxClientFailures: 50,
      lockoutSeconds: 900,
      accountReadable: true,
      knownDevice: false,
      now: 1,
    })
    expect(next.value).toBe('failed')
    expect(next.context.error).toBe('MissingCSRF')
  })

  it('a state mismatch stays a mismatch even after provide({ guards: { hasMatchingState } })', () => {
    const tampered = oauthMachine.provide({
      // @ts-expect-error hasMatchingState is not a named guard of the machine
      guards: { hasMatchingState: () => true, isFlowExpired: () => false },
    })
    const waiting = tampered.resolveState({
      value: 'awaitingCallback',
      context: { providerId: 'idp', state: 'expected', expiresAt: 100 },
    })
    const [next] = transition(tampered, waiting, {
      type: 'CALLBACK_RECEIVED',
      providerId: 'idp',
      state: 'forged',
      now: 10,
      dangerousEmailLinking: false,
    })
    expect(next.value).toBe('failed')
    expect(next.context.error).toBe('OAuthCallbackError')
  })
})
