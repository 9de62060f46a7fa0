/**
 * Handlers of the OAuth machine's commands. The client layer (src/effects/oauth/) does the protocol work and throws
 * a typed error naming the check that refused; here each refusal becomes the machine's named result event.
 */
import { OAuthProfileParseError } from '../../errors.js'
import type { HandlersFor } from '../../../machines/contract.js'
import type { OAuthCommand, oauthContract, OAuthEvent } from '../../../machines/oauth.js'
import type { OAuthConfigInternal } from '../../types/providers.js'
import type { Account, User } from '../../types/index.js'
import { emitAppEvent } from '../shared/app-events.js'
import type { EffectEnv } from '../shared/effect-env.js'
import { secondFactorHandlers, type SecondFactorInput } from '../shared/second-factor.js'
import { fromScratch } from '../shared/from-scratch.js'
import { profileFieldsOf } from '../shared/profile-fields.js'
import type { SignInScratch } from '../shared/sign-in-scratch.js'
import type { SessionIssuer, SignInSubject } from '../session/issue-jwt-session.js'
import { createAuthorizationUrl } from './authorization-url.js'
import {
  checkCallbackResponse,
  exchangeCallbackCode,
  readCallbackProfile,
  type CheckedAuthorizationResponse,
  type ExchangedCode,
  type OAuthCallbackInput,
} from './callback.js'
import { derivedUserId } from '../../security/derived-id.js'
import type { RefusalCheck } from '../../types/refusals.js'
import { findAuthError, loggable, type CallbackCheck } from './oauth-failure.js'
import { runRedirectCallback } from '../shared/redirect-callback.js'
import { runSignInCallback } from '../shared/sign-in-callback.js'
import { opLogoutClaimOf, wantsOpLogout } from '../session/op-logout-claim.js'

/**
 * What an OAuth callback's handlers hand each other in the run's scratch, besides the sign-in's user and account
 * (`SignInScratch`; the account carries the provider's tokens). None of it may enter the snapshot, which a sign-in
 * stopped at a second factor stores: the verifier and the code would let a stolen flow finish the exchange, and the
 * tokens and the profile are the provider's, handed to the app's callbacks only. The scratch lives for one request,
 * so the callback's steps, which all run in it, find them, and nothing outlives it.
 */
export interface OAuthScratch extends SignInScratch {
  /** The user as the provider's profile gave it; a resolution that runs again starts from it, not from a match. */
  profileUser: User
  profile: SignInSubject['profile']
  opLogout: SignInSubject['opLogout']
  /** The callback's parameters with the flow's state, nonce and PKCE verifier, once the machine has let them go. */
  callbackInput: OAuthCallbackInput
  /** The accepted authorization response (its code). */
  checked: CheckedAuthorizationResponse
  /** The token response. */
  exchanged: ExchangedCode
  /**
   * Where the browser is sent to sign in at the provider: the HTTP layer's answer to a flow that now waits. Kept out
   * of the context, which the flow record stores (a cookie flow store carries it), and which needs none of it.
   */
  authorizationUrl: string
}

/** The OAuth machine's handlers, as its contract types them. */
export type OAuthHandlers = HandlersFor<OAuthCommand, OAuthEvent, typeof oauthContract, OAuthScratch>

type Answer<K extends OAuthCommand['type']> = Awaited<ReturnType<OAuthHandlers[K]>>
type Refusal<K extends OAuthCommand['type']> = Exclude<Answer<K>, { user: unknown }>['type']

/**
 * Each callback step's result event for the checks of the client layer that can fail in it (src/effects/oauth/
 * callback.ts says which); a check a step does not list gets the step's general failure. The maps keep their own
 * literal types (`satisfies`), so a step's answers are the events its map and fallbacks name, not the contract's.
 */
const responseEvents = {
  provider_error: 'PROVIDER_DENIED',
  iss: 'AUTHORIZATION_RESPONSE_REFUSED',
  state: 'AUTHORIZATION_RESPONSE_REFUSED',
  code: 'AUTHORIZATION_RESPONSE_REFUSED',
  // A value the flow lost (nonce, PKCE verifier) refuses the callback before anything is sent.
  nonce: 'AUTHORIZATION_RESPONSE_REFUSED',
  pkce: 'AUTHORIZATION_RESPONSE_REFUSED',
} as const satisfies Partial<Record<CallbackCheck, Refusal<'checkAuthorizationResponse'>>>
const exchangeEvents = {
  pkce: 'PKCE_FAILED',
  id_token: 'ID_TOKEN_REFUSED',
  nonce: 'ID_TOKEN_REFUSED',
} as const satisfies Partial<Record<CallbackCheck, Refusal<'exchangeCode'>>>
const profileEvents = {
  id_token: 'ID_TOKEN_REFUSED',
  userinfo_signature: 'USERINFO_REFUSED',
} as const satisfies Partial<Record<CallbackCheck, Refusal<'fetchProfile'>>>

/** Checks of the client layer that are refusals (an attack or a forgery looks like this), by their refusal code. */
const refusalForCheck: Partial<Record<CallbackCheck, RefusalCheck>> = {
  iss: 'issuer',
  state: 'state',
  pkce: 'pkce',
  nonce: 'nonce',
  id_token: 'id-token',
  userinfo_signature: 'userinfo-signature',
}

/**
 * The result event of a callback step that threw. A refusal is logged once, by the runtime, under its check code;
 * other failures are errors worth a stack, logged here.
 */
function stepFailure<E extends string>(
  env: EffectEnv,
  err: unknown,
  events: Partial<Record<CallbackCheck, E>>,
  otherwise: E,
  profileRejected: E = otherwise,
): { type: E; check?: RefusalCheck; reason?: string } {
  const error = findAuthError(err) ?? (err instanceof Error ? err : new Error(String(err)))
  const check = (error as { cause?: { check?: CallbackCheck } }).cause?.check
  const type = (check && events[check]) || otherwise
  const refusal = check && refusalForCheck[check]
  if (refusal) return { type, check: refusal, reason: loggable(error.message) }
  env.config.logger.error(error)
  return { type: error instanceof OAuthProfileParseError ? profileRejected : type }
}

/** How the user behind a validated callback is found or created; without an adapter the profile is the user. */
export interface UserResolution {
  resolveUser(subject: SignInSubject): Promise<Answer<'resolveUser'>>
  createUser(subject: SignInSubject): Promise<Answer<'createUser'>>
  linkAccount(subject: SignInSubject): Promise<Answer<'linkAccount'>>
  /** Waits, boundedly, for a racing sign-in of the same account to link it (the user is resolved again after). */
  awaitAccountLink(subject: SignInSubject): Promise<Answer<'awaitAccountLink'>>
}

/**
 * JWT sessions without an adapter: the user is whoever the provider says, with an id derived from the provider and
 * the provider's account id, so two providers' users never share `token.sub` (src/security/derived-id.ts).
 */
export const profileIsTheUser = {
  resolveUser: async (subject) => {
    const account = subject.account as Account
    const id = derivedUserId(account.provider, account.providerAccountId)
    subject.user = { ...subject.user, id }
    return { type: 'ACCOUNT_FOUND', ownerId: id }
  },
  createUser: async () => ({ type: 'USER_CREATED' }),
  linkAccount: async () => ({ type: 'ACCOUNT_LINKED' }),
  awaitAccountLink: async () => ({ type: 'ACCOUNT_LINK_AWAITED' }),
} satisfies UserResolution

function pickUser(user: User): User {
  return { id: user.id, ...profileFieldsOf(user) }
}

export interface OAuthFlowInput {
  provider: OAuthConfigInternal
  redirectUri: string
  /** Per-request authorization parameters (the query of the sign-in request). */
  authorizationParams?: Record<string, string>
  /** The callback's query, or the form body of a form_post callback. */
  callbackParams?: URLSearchParams
  issueSession: SessionIssuer
  users: UserResolution
  secondFactor: SecondFactorInput
}

/** Builds the handlers for one OAuth request. */
export function oauthFlowEffects(env: EffectEnv, input: OAuthFlowInput) {
  const { config } = env
  const { provider } = input
  /** Who is signing in, as the scratch has them by now (the user resolution's steps read and replace the user). */
  const subjectOf = (scratch: Partial<OAuthScratch>): SignInSubject => ({
    user: scratch.user ?? {},
    account: scratch.account ?? null,
    profile: scratch.profile,
    opLogout: scratch.opLogout,
  })
  /** One step of the user resolution: it gets the subject and may replace its user (the stored one, a new one). */
  const resolving = async <A>(scratch: Partial<OAuthScratch>, step: (subject: SignInSubject) => Promise<A>) => {
    const subject = subjectOf(scratch)
    const answer = await step(subject)
    scratch.user = subject.user
    return answer
  }

  return {
    ...secondFactorHandlers(env, input.secondFactor),
    runRedirectCallback: (params) => runRedirectCallback(env, params),

    async buildAuthorizationUrl(params, scratch) {
      try {
        const url = await createAuthorizationUrl(provider, {
          redirectUri: input.redirectUri,
          state: params.state,
          nonce: params.nonce,
          codeVerifier: params.codeVerifier,
          params: input.authorizationParams,
          timeoutMs: config.providerTimeout,
        })
        scratch.authorizationUrl = url.href
        return { type: 'AUTHORIZATION_URL_BUILT' }
      } catch (err) {
        config.logger.error(findAuthError(err) ?? (err instanceof Error ? err : new Error(String(err))))
        return { type: 'AUTHORIZATION_URL_FAILED' }
      }
    },

    async checkAuthorizationResponse(params, scratch) {
      const callbackInput: OAuthCallbackInput = {
        callbackParams: input.callbackParams ?? new URLSearchParams(),
        redirectUri: input.redirectUri,
        expectedState: params.state,
        expectedNonce: params.nonce,
        codeVerifier: params.codeVerifier,
        timeoutMs: config.providerTimeout,
        now: () => env.now * 1000,
      }
      scratch.callbackInput = callbackInput
      try {
        scratch.checked = await checkCallbackResponse(provider, callbackInput)
        return { type: 'AUTHORIZATION_RESPONSE_ACCEPTED' }
      } catch (err) {
        return stepFailure(env, err, responseEvents, 'PROVIDER_UNREACHABLE')
      }
    },

    async exchangeCode(_params, scratch) {
      const { checked, callbackInput } = scratch
      // The machine enters this step only after the previous one, in this request: nothing to exchange otherwise.
      if (!checked || !callbackInput) return { type: 'TOKEN_EXCHANGE_FAILED' }
      try {
        scratch.exchanged = await exchangeCallbackCode(provider, callbackInput, checked)
        return { type: 'CODE_EXCHANGED' }
      } catch (err) {
        return stepFailure(env, err, exchangeEvents, 'TOKEN_EXCHANGE_FAILED')
      }
    },

    async fetchProfile(_params, scratch) {
      const { exchanged, callbackInput } = scratch
      if (!exchanged || !callbackInput) return { type: 'USERINFO_FAILED' }
      try {
        const result = await readCallbackProfile(provider, callbackInput, exchanged)
        scratch.user = result.user
        scratch.profileUser = result.user
        scratch.account = result.account
        scratch.profile = result.profile
        if (wantsOpLogout(provider, config.backchannelLogout !== undefined))
          scratch.opLogout = opLogoutClaimOf(provider, result.account, result.tokens, env.nowMs)
        return { type: 'PROFILE_FETCHED', user: pickUser(result.user) }
      } catch (err) {
        return stepFailure(env, err, profileEvents, 'USERINFO_FAILED', 'PROFILE_REJECTED')
      }
    },

    runSignInCallback: (_params, scratch) => {
      const { user, account, profile } = subjectOf(scratch)
      return runSignInCallback(env, { user, account, profile }, provider.id)
    },

    resolveUser: (_params, scratch) => {
      scratch.user = fromScratch(scratch.profileUser, 'the profile’s user')
      return resolving(scratch, input.users.resolveUser)
    },
    createUser: (_params, scratch) => resolving(scratch, input.users.createUser),
    linkAccount: (_params, scratch) => resolving(scratch, input.users.linkAccount),
    awaitAccountLink: (_params, scratch) => resolving(scratch, input.users.awaitAccountLink),

    // The machine says whether this is a sign-up (it saw the user created); the full profile stays in the scratch.
    issueSession: ({ isNewUser, enrolmentPending }, scratch) =>
      input.issueSession(env, { ...subjectOf(scratch), isNewUser, enrolmentPending }, scratch),

    async emitSignInEvent({ isNewUser }, scratch) {
      const { user, account, profile } = subjectOf(scratch)
      await emitAppEvent(env, 'signIn', { user, account, profile, isNewUser })
      return { type: 'SIGNIN_ANNOUNCED' }
    },
  } satisfies OAuthHandlers
}
