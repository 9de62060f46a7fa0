/**
 * The contract's other direction, checked by the compiler: every event a machine's contract lists for a command is
 * one its handler's type can answer, and it answers nothing else (machines/contract.ts, `AnswersExactly`). The
 * handler records are built with `satisfies HandlersFor<…>`, and the answers of the helpers they call (the shared
 * callbacks, the failure limits, the second factor, the OAuth steps and user resolutions, the session strategies)
 * are the types their bodies return, never a type derived from the contract: so a listed event no code returns, or
 * a returned event the list lacks, fails `tsc`. This replaced a search of the handler sources for each event's name.
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
import type { completionContract } from '../../machines/sign-in-completion.js'
import type { credentialsEffects } from '../../src/effects/credentials/credentials-flow.js'
import type { emailFlowEffects } from '../../src/effects/email/email-flow.js'
import type { oauthFlowEffects, profileIsTheUser } from '../../src/effects/oauth/oauth-flow.js'
import type { adapterUserResolution } from '../../src/effects/oauth/adapter-user-resolution.js'
import type { backchannelLogoutEffects } from '../../src/effects/session/backchannel-logout-flow.js'
import type { databaseSessionEffects } from '../../src/effects/session/database-session.js'
import type { jwtSessionEffects } from '../../src/effects/session/jwt-session.js'
import type { issueJwtSession, SessionIssued, SessionIssuer } from '../../src/effects/session/issue-jwt-session.js'
import type { issueDatabaseSession } from '../../src/effects/session/issue-database-session.js'
import type { issueEnrolmentPendingSignIn } from '../../src/effects/session/issue-enrolment-pending.js'
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
  it('oauth: the user resolution steps, as the two resolutions (adapter, or the profile is the user) answer them', () => {
    // The flow's handlers answer these through the `UserResolution` interface: the implementations are what is checked.
    type Resolution = Pick<typeof oauthContract, 'resolveUser' | 'createUser' | 'linkAccount' | 'awaitAccountLink'>
    type Resolutions = typeof profileIsTheUser | ReturnType<typeof adapterUserResolution>
    expectTypeOf<AnswersExactly<Resolutions, Resolution>>().toEqualTypeOf<Exact<Resolution>>()
    // Without an adapter, a user is never looked for: only its derived id is found.
    expectTypeOf<AnswersOf<typeof profileIsTheUser>['resolveUser']>().toEqualTypeOf<'ACCOUNT_FOUND'>()
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

describe('the session issuers answer exactly the completion’s issueSession events (type level)', () => {
  type IssueSession = Pick<typeof completionContract, 'issueSession'>
  /** The three issuers every sign-in's `issueSession` calls (src/core/session-issuer.ts), by their bodies' types. */
  type Issuers = {
    issueSession: typeof issueJwtSession | typeof issueDatabaseSession | typeof issueEnrolmentPendingSignIn
  }

  it('together, they answer every listed event and nothing else', () => {
    expectTypeOf<AnswersExactly<Issuers, IssueSession>>().toEqualTypeOf<Exact<IssueSession>>()
    // What an issuer may answer is the contract's list, not a union written beside it.
    expectTypeOf<SessionIssued['type']>().toEqualTypeOf<IssueSession['issueSession'][number]>()
  })

  it('an issuer that drifts fails to compile', () => {
    /** An issuer that holds the sign-in with an event the completion does not list for `issueSession`. */
    type Holding = (...args: Parameters<SessionIssuer>) => Promise<{ type: 'SESSION_HELD' }>
    // @ts-expect-error SESSION_HELD is no event the completion accepts from issueSession
    expectTypeOf<Holding>().toExtend<SessionIssuer>()
    /** Issuers that never fail: the contract's SESSION_FAILED would have no issuer answering it. */
    type NeverFail = { issueSession: () => Promise<{ type: 'SESSION_ISSUED' }> }
    // @ts-expect-error SESSION_FAILED, which the contract lists, is answered by no issuer
    expectTypeOf<AnswersExactly<NeverFail, IssueSession>>().toEqualTypeOf<Exact<IssueSession>>()
    expectTypeOf<AnswersExactly<NeverFail, IssueSession>['issueSession']>().toEqualTypeOf<{
      missing: 'SESSION_FAILED'
      extra: never
    }>()
  })
})

describe('a real machine’s handlers that drift from the contract fail to compile', () => {
  type Credentials = ReturnType<typeof credentialsEffects>
  /** `clearFailures` also answers an event its contract does not list. */
  type AnswersOutside = Omit<Credentials, 'clearFailures'> & {
    clearFailures: () => { type: 'FAILURES_CLEARED' } | { type: 'LOCKOUT_STARTED' }
  }
  /** `authorize` never answers AUTHORIZE_FAILED, which its contract lists. */
  type NeverFails = Omit<Credentials, 'authorize'> & {
    authorize: () => Promise<{ type: 'AUTHORIZED' } | { type: 'AUTHORIZE_REJECTED' }>
  }

  type Contract = typeof credentialsContract

  it('an answer outside the contract', () => {
    // @ts-expect-error clearFailures may answer LOCKOUT_STARTED, which its contract does not list
    expectTypeOf<AnswersExactly<AnswersOutside, Contract>>().toEqualTypeOf<Exact<Contract>>()
    expectTypeOf<AnswersExactly<AnswersOutside, Contract>['clearFailures']>().toEqualTypeOf<{
      missing: never
      extra: 'LOCKOUT_STARTED'
    }>()
  })

  it('a contract event no handler returns', () => {
    // @ts-expect-error authorize never answers AUTHORIZE_FAILED, which its contract lists
    expectTypeOf<AnswersExactly<NeverFails, Contract>>().toEqualTypeOf<Exact<Contract>>()
    expectTypeOf<AnswersExactly<NeverFails, Contract>['authorize']>().toEqualTypeOf<{
      missing: 'AUTHORIZE_FAILED'
      extra: never
    }>()
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
