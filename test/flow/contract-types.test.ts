/**
 * The contract's other direction, checked by the compiler: every event a machine's contract lists for a command is
 * one its handler's type can answer, and it answers nothing else (machines/contract.ts, `AnswersExactly`). The
 * handler records are built with `satisfies HandlersFor<…>`, so their types are the handlers' own, not the
 * contract's. `tsc` fails on a mismatch; the runtime assertions below only say which records were checked.
 */
import { describe, expect, expectTypeOf, it } from 'vitest'
import type { AnswersExactly, AnswersOf } from '../../machines/contract.js'
import type { backchannelLogoutContract } from '../../machines/backchannel-logout.js'
import type { credentialsContract } from '../../machines/credentials.js'
import type { emailContract } from '../../machines/email.js'
import type { oauthContract } from '../../machines/oauth.js'
import type { sessionContract } from '../../machines/session.js'
import type { tokenRefreshContract } from '../../machines/token-refresh.js'
import type { webAuthnContract } from '../../machines/webauthn.js'
import type { credentialsEffects } from '../../src/effects/credentials/credentials-flow.js'
import type { emailFlowEffects } from '../../src/effects/email/email-flow.js'
import type { oauthFlowEffects } from '../../src/effects/oauth/oauth-flow.js'
import type { backchannelLogoutEffects } from '../../src/effects/session/backchannel-logout-flow.js'
import type { databaseSessionEffects } from '../../src/effects/session/database-session.js'
import type { jwtSessionEffects } from '../../src/effects/session/jwt-session.js'
import type { tokenRefreshEffects } from '../../src/effects/token-refresh/token-refresh-flow.js'
import type { webAuthnEffects } from '../../src/effects/webauthn/webauthn-flow.js'

/** What `AnswersExactly` is when every command's handler answers exactly its list. */
type Exact<Contract> = { [K in keyof Contract]: true }

describe('handlers answer exactly their contract (type level)', () => {
  it('credentials', () => {
    expectTypeOf<AnswersExactly<ReturnType<typeof credentialsEffects>, typeof credentialsContract>>().toEqualTypeOf<
      Exact<typeof credentialsContract>
    >()
  })
  it('email', () => {
    expectTypeOf<AnswersExactly<ReturnType<typeof emailFlowEffects>, typeof emailContract>>().toEqualTypeOf<
      Exact<typeof emailContract>
    >()
  })
  it('oauth', () => {
    expectTypeOf<AnswersExactly<ReturnType<typeof oauthFlowEffects>, typeof oauthContract>>().toEqualTypeOf<
      Exact<typeof oauthContract>
    >()
  })
  it('webauthn', () => {
    expectTypeOf<AnswersExactly<ReturnType<typeof webAuthnEffects>, typeof webAuthnContract>>().toEqualTypeOf<
      Exact<typeof webAuthnContract>
    >()
  })
  it('session: the two strategies together; the database one is never revoked at the provider', () => {
    type Strategies = ReturnType<typeof databaseSessionEffects> | ReturnType<typeof jwtSessionEffects>
    expectTypeOf<AnswersExactly<Strategies, typeof sessionContract>>().toEqualTypeOf<Exact<typeof sessionContract>>()
    // A back-channel logout deletes a database session's row: only a JWT session can outlive it and be refused.
    expectTypeOf<
      AnswersExactly<ReturnType<typeof databaseSessionEffects>, typeof sessionContract>['loadSession']
    >().toEqualTypeOf<{ missing: 'SESSION_REVOKED_AT_PROVIDER'; extra: never }>()
  })
  it('token refresh', () => {
    expectTypeOf<AnswersExactly<ReturnType<typeof tokenRefreshEffects>, typeof tokenRefreshContract>>().toEqualTypeOf<
      Exact<typeof tokenRefreshContract>
    >()
  })
  it('back-channel logout', () => {
    expectTypeOf<
      AnswersExactly<ReturnType<typeof backchannelLogoutEffects>, typeof backchannelLogoutContract>
    >().toEqualTypeOf<Exact<typeof backchannelLogoutContract>>()
  })
})

describe('the check itself', () => {
  const contract = { lookUp: ['FOUND', 'NOT_FOUND'], save: ['SAVED'] } as const
  const exact = {
    lookUp: (id: string) => (id ? { type: 'FOUND' as const } : { type: 'NOT_FOUND' as const }),
    save: async () => ({ type: 'SAVED' as const }),
  }
  // A handler that never answers NOT_FOUND (the contract lists an event no handler produces), and one that answers
  // an event outside its contract.
  const missing = { lookUp: () => ({ type: 'FOUND' as const }), save: exact.save }
  const extra = { lookUp: exact.lookUp, save: () => ({ type: 'RETRY' as const }) }

  it('reads each handler’s answers from its own return type, awaited', () => {
    expectTypeOf<AnswersOf<typeof exact>>().toEqualTypeOf<{ lookUp: 'FOUND' | 'NOT_FOUND'; save: 'SAVED' }>()
  })

  it('passes exact handlers and names what is missing or extra', () => {
    // The fixtures do what their types say.
    expect(Object.keys(exact)).toEqual(Object.keys(contract))
    expect([missing.lookUp().type, extra.save().type]).toEqual(['FOUND', 'RETRY'])
    expectTypeOf<AnswersExactly<typeof exact, typeof contract>>().toEqualTypeOf<Exact<typeof contract>>()
    expectTypeOf<AnswersExactly<typeof missing, typeof contract>['lookUp']>().toEqualTypeOf<{
      missing: 'NOT_FOUND'
      extra: never
    }>()
    expectTypeOf<AnswersExactly<typeof extra, typeof contract>['save']>().toEqualTypeOf<{
      missing: 'SAVED'
      extra: 'RETRY'
    }>()
    // @ts-expect-error a handler answering an event outside its contract is not exact
    expectTypeOf<AnswersExactly<typeof extra, typeof contract>>().toEqualTypeOf<Exact<typeof contract>>()
    // @ts-expect-error a contract event no handler produces is not exact either
    expectTypeOf<AnswersExactly<typeof missing, typeof contract>>().toEqualTypeOf<Exact<typeof contract>>()
  })
})
