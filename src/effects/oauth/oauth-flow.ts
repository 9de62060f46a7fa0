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
import { handleOAuthCallback } from './callback.js'
import { derivedUserId } from '../../security/derived-id.js'
import type { RefusalCheck } from '../../types/refusals.js'
import { findAuthError, loggable, type CallbackCheck } from './oauth-failure.js'
import { runRedirectCallback } from '../shared/redirect-callback.js'
import { runSignInCallback } from '../shared/sign-in-callback.js'
import { opLogoutClaimOf, wantsOpLogout } from '../session/op-logout-claim.js'

/** The OAuth machine's handlers, as its contract types them. */
export type OAuthHandlers = HandlersFor<OAuthCommand, OAuthEvent, typeof oauthContract>

type Answer<K extends OAuthCommand['type']> = Awaited<ReturnType<OAuthHandlers[K]>>
type CallbackFailure = Exclude<Answer<'handleCallback'>, { type: 'CALLBACK_VALIDATED' }>['type']

/** The result event for each check of the client layer. */
const eventForCheck: Record<CallbackCheck, CallbackFailure> = {
  provider_error: 'PROVIDER_DENIED',
  iss: 'AUTHORIZATION_RESPONSE_REJECTED',
  state: 'AUTHORIZATION_RESPONSE_REJECTED',
  code: 'AUTHORIZATION_RESPONSE_REJECTED',
  pkce: 'PKCE_FAILED',
  token_endpoint: 'TOKEN_REQUEST_FAILED',
  token_type: 'TOKEN_REQUEST_FAILED',
  timeout: 'TOKEN_REQUEST_FAILED',
  endpoint: 'TOKEN_REQUEST_FAILED',
  discovery: 'TOKEN_REQUEST_FAILED',
  id_token: 'ID_TOKEN_REJECTED',
  nonce: 'NONCE_MISMATCHED',
  userinfo: 'USERINFO_FAILED',
  userinfo_signature: 'USERINFO_REJECTED',
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

    async handleCallback(params): Promise<Answer<'handleCallback'>> {
      try {
        const result = await handleOAuthCallback(provider, {
          callbackParams: input.callbackParams ?? new URLSearchParams(),
          redirectUri: input.redirectUri,
          expectedState: params.state,
          expectedNonce: params.nonce,
          codeVerifier: params.codeVerifier,
          timeoutMs: config.providerTimeout,
          now: () => env.now * 1000,
        })
        subject.user = result.user
        profileUser = result.user
        subject.account = result.account
        subject.profile = result.profile
        if (wantsOpLogout(provider, config.backchannelLogout !== undefined))
          subject.opLogout = opLogoutClaimOf(provider, result.account, result.tokens, env.nowMs)
        return { type: 'CALLBACK_VALIDATED', user: pickUser(result.user) }
      } catch (err) {
        const error = findAuthError(err) ?? (err instanceof Error ? err : new Error(String(err)))
        const check = (error as { cause?: { check?: CallbackCheck } }).cause?.check
        const refusal = check && refusalForCheck[check]
        // A refusal is logged once, by the runtime, under its check code; other failures are errors worth a stack.
        if (refusal) return { type: eventForCheck[check], check: refusal, reason: loggable(error.message) }
        config.logger.error(error)
        if (error instanceof OAuthProfileParseError) return { type: 'PROFILE_REJECTED' }
        return { type: (check && eventForCheck[check]) || 'TOKEN_REQUEST_FAILED' }
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
    issueSession: ({ isNewUser }) => input.issueSession(env, { ...subject, isNewUser }),

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
