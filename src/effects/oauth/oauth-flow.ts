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

/** The OAuth machine's handlers, as its contract types them. */
export type OAuthHandlers = HandlersFor<OAuthCommand, OAuthEvent, typeof oauthContract>

type Answer<K extends OAuthCommand['type']> = Awaited<ReturnType<OAuthHandlers[K]>>
type Refusal<K extends OAuthCommand['type']> = Exclude<Answer<K>, { user: unknown }>['type']

/**
 * Each callback step's result event for the checks of the client layer that can fail in it (src/effects/oauth/
 * callback.ts says which); a check a step does not list gets the step's general failure.
 */
const responseEvents: Partial<Record<CallbackCheck, Refusal<'checkAuthorizationResponse'>>> = {
  provider_error: 'PROVIDER_DENIED',
  iss: 'AUTHORIZATION_RESPONSE_REFUSED',
  state: 'AUTHORIZATION_RESPONSE_REFUSED',
  code: 'AUTHORIZATION_RESPONSE_REFUSED',
  // A value the flow lost (nonce, PKCE verifier) refuses the callback before anything is sent.
  nonce: 'AUTHORIZATION_RESPONSE_REFUSED',
  pkce: 'AUTHORIZATION_RESPONSE_REFUSED',
}
const exchangeEvents: Partial<Record<CallbackCheck, Refusal<'exchangeCode'>>> = {
  pkce: 'PKCE_FAILED',
  id_token: 'ID_TOKEN_REFUSED',
  nonce: 'ID_TOKEN_REFUSED',
}
const profileEvents: Partial<Record<CallbackCheck, Refusal<'fetchProfile'>>> = {
  id_token: 'ID_TOKEN_REFUSED',
  userinfo_signature: 'USERINFO_REFUSED',
}

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
export const profileIsTheUser: UserResolution = {
  resolveUser: async (subject) => {
    const account = subject.account as Account
    const id = derivedUserId(account.provider, account.providerAccountId)
    subject.user = { ...subject.user, id }
    return { type: 'ACCOUNT_FOUND', ownerId: id }
  },
  createUser: async () => ({ type: 'USER_CREATED' }),
  linkAccount: async () => ({ type: 'ACCOUNT_LINKED' }),
  awaitAccountLink: async () => ({ type: 'ACCOUNT_LINK_AWAITED' }),
}

function pickUser(user: User) {
  return {
    id: user.id,
    name: typeof user.name === 'string' ? user.name.slice(0, 256) : undefined,
    email: typeof user.email === 'string' ? user.email.slice(0, 256) : undefined,
    image: typeof user.image === 'string' ? user.image.slice(0, 1024) : undefined,
  }
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
  const subject: SignInSubject = { user: {}, account: null }
  /** The user as the provider's profile gave it; a resolution that runs again starts from it, not from a match. */
  let profileUser: User = {}
  // The callback's steps hand each other the verifier and the tokens here, in this request only: never in the flow.
  let callbackInput: OAuthCallbackInput | undefined
  let checked: CheckedAuthorizationResponse | undefined
  let exchanged: ExchangedCode | undefined

  return {
    ...secondFactorHandlers(env, input.secondFactor, () => subject),
    runRedirectCallback: (params) => runRedirectCallback(env, params),

    async buildAuthorizationUrl(params) {
      try {
        const url = await createAuthorizationUrl(provider, {
          redirectUri: input.redirectUri,
          state: params.state,
          nonce: params.nonce,
          codeVerifier: params.codeVerifier,
          params: input.authorizationParams,
          timeoutMs: config.providerTimeout,
        })
        env.outcome.authorizationUrl = url.href
        return { type: 'AUTHORIZATION_URL_BUILT' }
      } catch (err) {
        config.logger.error(findAuthError(err) ?? (err instanceof Error ? err : new Error(String(err))))
        return { type: 'AUTHORIZATION_URL_FAILED' }
      }
    },

    async checkAuthorizationResponse(params) {
      callbackInput = {
        callbackParams: input.callbackParams ?? new URLSearchParams(),
        redirectUri: input.redirectUri,
        expectedState: params.state,
        expectedNonce: params.nonce,
        codeVerifier: params.codeVerifier,
        timeoutMs: config.providerTimeout,
        now: () => env.now * 1000,
      }
      try {
        checked = await checkCallbackResponse(provider, callbackInput)
        return { type: 'AUTHORIZATION_RESPONSE_ACCEPTED' }
      } catch (err) {
        return stepFailure(env, err, responseEvents, 'PROVIDER_UNREACHABLE')
      }
    },

    async exchangeCode() {
      // The machine enters this step only after the previous one, in this request: nothing to exchange otherwise.
      if (!checked || !callbackInput) return { type: 'TOKEN_EXCHANGE_FAILED' }
      try {
        exchanged = await exchangeCallbackCode(provider, callbackInput, checked)
        return { type: 'CODE_EXCHANGED' }
      } catch (err) {
        return stepFailure(env, err, exchangeEvents, 'TOKEN_EXCHANGE_FAILED')
      }
    },

    async fetchProfile() {
      if (!exchanged || !callbackInput) return { type: 'USERINFO_FAILED' }
      try {
        const result = await readCallbackProfile(provider, callbackInput, exchanged)
        subject.user = result.user
        profileUser = result.user
        subject.account = result.account
        subject.profile = result.profile
        if (wantsOpLogout(provider, config.backchannelLogout !== undefined))
          subject.opLogout = opLogoutClaimOf(provider, result.account, result.tokens, env.nowMs)
        return { type: 'PROFILE_FETCHED', user: pickUser(result.user) }
      } catch (err) {
        return stepFailure(env, err, profileEvents, 'USERINFO_FAILED', 'PROFILE_REJECTED')
      }
    },

    runSignInCallback: () =>
      runSignInCallback(env, { user: subject.user, account: subject.account, profile: subject.profile }, provider.id),

    resolveUser: () => {
      subject.user = profileUser
      return input.users.resolveUser(subject)
    },
    createUser: () => input.users.createUser(subject),
    linkAccount: () => input.users.linkAccount(subject),
    awaitAccountLink: () => input.users.awaitAccountLink(subject),

    // The machine says whether this is a sign-up (it saw the user created); the full profile stays here.
    issueSession: ({ isNewUser, enrolmentPending }) =>
      input.issueSession(env, { ...subject, isNewUser, enrolmentPending }),

    async emitSignInEvent({ isNewUser }) {
      await emitAppEvent(env, 'signIn', {
        user: subject.user,
        account: subject.account,
        profile: subject.profile,
        isNewUser,
      })
      return { type: 'SIGNIN_ANNOUNCED' }
    },
  } satisfies OAuthHandlers
}
