/** The `runSignInCallback` command: the app's `signIn` callback allows (`true`), refuses, or redirects (a string). */
import { AccessDenied } from '../../errors.js'
import type { SignInCallbackParams } from '../../types/index.js'
import { defaultSignInCallback } from './default-callbacks.js'
import type { EffectEnv } from './effect-env.js'

/** What the signIn callback answered. */
export type SignInResult = Awaited<ReturnType<typeof runSignInCallback>>

const allowed = Object.freeze({ type: 'SIGNIN_ALLOWED' } as const)

/**
 * Runs the signIn callback; a thrown error is an AccessDenied carrying the original message. The built-in callback
 * (every sign-in allowed) is answered at once, without a promise.
 */
export function runSignInCallback(env: EffectEnv, params: SignInCallbackParams, providerId: string) {
  if (env.config.callbacks.signIn === defaultSignInCallback) return allowed
  return runAppSignInCallback(env, params, providerId)
}

async function runAppSignInCallback(env: EffectEnv, params: SignInCallbackParams, providerId: string) {
  const { logger, callbacks } = env.config
  try {
    const verdict = await callbacks.signIn(params)
    if (verdict === true) return { type: 'SIGNIN_ALLOWED' } as const
    if (typeof verdict === 'string' && verdict !== '') return { type: 'SIGNIN_REDIRECTED', url: verdict } as const
    logger.error(new AccessDenied('the signIn callback refused the sign-in', { provider: providerId }))
    return { type: 'SIGNIN_DENIED' } as const
  } catch (err) {
    logger.error(
      new AccessDenied(err instanceof Error ? err.message : 'the signIn callback threw', {
        err: err instanceof Error ? err : undefined,
      }),
    )
    return { type: 'SIGNIN_FAILED' } as const
  }
}
