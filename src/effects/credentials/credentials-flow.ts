/**
 * Handlers of the credentials machine's commands: the failure limits (failure-limits.ts), the provider's
 * `authorize`, the `signIn` callback, the session, the `signIn` event. The full user `authorize` returned stays in
 * the run's scratch (`SignInScratch`: it is the app's object, with whatever fields the app put on it, which a stored
 * flow must not carry); the machine keeps only id, name, e-mail, image.
 */
import { randomUUID } from 'node:crypto'
import { CallbackRouteError, CredentialsSignin, defaultMessage } from '../../errors.js'
import type { CredentialsCommand, credentialsContract, CredentialsEvent } from '../../../machines/credentials.js'
import type { HandlersFor } from '../../../machines/contract.js'
import type { CredentialsConfig } from '../../types/providers.js'
import type { User } from '../../types/index.js'
import { emitAppEvent } from '../shared/app-events.js'
import type { EffectEnv } from '../shared/effect-env.js'
import { issueJwtSession, type SessionIssuer } from '../session/issue-jwt-session.js'
import { runRedirectCallback } from '../shared/redirect-callback.js'
import { runSignInCallback } from '../shared/sign-in-callback.js'
import { failureLimitHandlers, type FailureLimitsInput } from './failure-limits.js'
import { secondFactorHandlers, type SecondFactorInput } from '../shared/second-factor.js'
import { fromScratch } from '../shared/from-scratch.js'
import { profileFieldsOf } from '../shared/profile-fields.js'
import type { SignInScratch } from '../shared/sign-in-scratch.js'

/** The credentials machine's handlers, as its contract types them. */
export type CredentialsHandlers = HandlersFor<
  CredentialsCommand,
  CredentialsEvent,
  typeof credentialsContract,
  SignInScratch
>

function pickUser(user: User): User {
  const fields = profileFieldsOf(user)
  return user.id !== undefined && user.id !== null ? { id: String(user.id), ...fields } : fields
}

function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as Partial<PromiseLike<T>> | null)?.then === 'function'
}

/** Builds the handlers for one credentials sign-in. */
export function credentialsEffects(
  env: EffectEnv,
  provider: CredentialsConfig,
  issueSession: SessionIssuer = issueJwtSession,
  limits: FailureLimitsInput,
  secondFactor: SecondFactorInput,
) {
  const { config } = env
  const { csrfToken: _csrf, callbackUrl: _callback, ...credentials } = env.body ?? {}

  const limitHandlers = failureLimitHandlers(env, provider.id, limits)
  const factorHandlers = secondFactorHandlers(env, secondFactor)
  // Named one by one rather than spread into the literal: the handlers object is built on every sign-in.
  return {
    runRedirectCallback: (params) => runRedirectCallback(env, params),
    reserveAttempt: limitHandlers.reserveAttempt,
    startLockout: limitHandlers.startLockout,
    clearFailures: limitHandlers.clearFailures,
    checkSecondFactor: factorHandlers.checkSecondFactor,
    reserveFactorAttempt: factorHandlers.reserveFactorAttempt,
    verifySecondFactor: factorHandlers.verifySecondFactor,

    authorize(_params, scratch) {
      const rejected = (err: unknown) => {
        if (err instanceof CredentialsSignin) {
          // A wrong password is an everyday outcome, not a server error: one warn line, no stack. The app's own
          // message goes with it; a bare CredentialsSignin's text (Auth.js's "Read more at ...") would add nothing.
          const code = typeof err.code === 'string' ? err.code.slice(0, 64) : 'credentials'
          const own = err.message !== defaultMessage(CredentialsSignin) ? err.message.slice(0, 120) : undefined
          config.logger.warn('credentials-signin', { provider: provider.id, code, ...(own ? { message: own } : {}) })
          // The spec and Auth.js: the full error always reaches `logger.error` (the built-in logger writes only the
          // warn line above for it, see src/logger.ts).
          config.logger.error(err)
          return { type: 'AUTHORIZE_REJECTED' as const, code }
        }
        config.logger.error(
          new CallbackRouteError('authorize() threw', {
            err: err instanceof Error ? err : undefined,
            provider: provider.id,
          }),
        )
        return { type: 'AUTHORIZE_FAILED' as const }
      }
      const returned = (found: User | null) => {
        if (!found || typeof found !== 'object') {
          config.logger.warn('credentials-signin', {
            provider: provider.id,
            code: 'credentials',
            reason: 'authorize() returned no user',
          })
          // Auth.js throws (and logs) a bare CredentialsSignin when authorize returns no user: the same error here.
          config.logger.error(new CredentialsSignin())
          return { type: 'AUTHORIZE_REJECTED' as const, code: 'credentials' }
        }
        // Auth.js gives a user without an id a fresh one; without it two such users would share `token.sub`.
        const id = found.id === undefined || found.id === null || found.id === '' ? randomUUID() : String(found.id)
        const user = { ...found, id }
        scratch.user = user
        scratch.account = { providerAccountId: id, type: 'credentials', provider: provider.id }
        return { type: 'AUTHORIZED' as const, user: pickUser(user) }
      }
      let answer: ReturnType<CredentialsConfig['authorize']>
      try {
        answer = provider.authorize(credentials, env.request)
      } catch (err) {
        return rejected(err)
      }
      // Any thenable the app returns is waited for, as `await` would; a plain value is used at once.
      if (isThenable(answer)) return Promise.resolve(answer).then(returned, rejected)
      return returned(answer)
    },

    runSignInCallback: (_params, { user, account = null }) =>
      runSignInCallback(env, { user: fromScratch(user, 'the authorized user'), account, credentials }, provider.id),

    // Auth.js never creates a credentials user: the jwt callback is told so (isNewUser false, trigger signIn).
    issueSession: ({ isNewUser, enrolmentPending }, scratch) =>
      issueSession(
        env,
        {
          user: fromScratch(scratch.user, 'the authorized user'),
          account: scratch.account ?? null,
          isNewUser,
          enrolmentPending,
        },
        scratch,
      ),

    emitSignInEvent(_params, { user, account = null }) {
      const pending = emitAppEvent(env, 'signIn', { user: fromScratch(user, 'the authorized user'), account })
      return pending ? pending.then(() => ({ type: 'SIGNIN_ANNOUNCED' }) as const) : { type: 'SIGNIN_ANNOUNCED' }
    },
  } satisfies CredentialsHandlers
}
