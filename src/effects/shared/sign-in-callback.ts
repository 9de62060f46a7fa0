/** The `runSignInCallback` command: the app's `signIn` callback allows (`true`), refuses, or redirects (a string). */
import { AccessDenied } from '../../errors.js'
import type { SignInCallbackParams } from '../../types/index.js'
import type { EffectEnv } from './effect-env.js'

/** What the signIn callback answered. */
export type SignInResult =
  | { type: 'SIGNIN_ALLOWED' }
  | { type: 'SIGNIN_REDIRECTED'; url: string }
  | { type: 'SIGNIN_DENIED' }
  | { type: 'SIGNIN_FAILED' }

/** Runs the signIn callback; a thrown error is an AccessDenied carrying the original message. */
export async function runSignInCallback(
  env: EffectEnv,
  params: SignInCallbackParams,
  providerId: string,
): Promise<SignInResult> {
  const { logger, callbacks } = env.config
  try {
    const verdict = await callbacks.signIn(params)
    if (verdict === true) return { type: 'SIGNIN_ALLOWED' }
    if (typeof verdict === 'string' && verdict !== '') return { type: 'SIGNIN_REDIRECTED', url: verdict }
    logger.error(new AccessDenied('the signIn callback refused the sign-in', { provider: providerId }))
    return { type: 'SIGNIN_DENIED' }
  } catch (err) {
    logger.error(
      new AccessDenied(err instanceof Error ? err.message : 'the signIn callback threw', {
        err: err instanceof Error ? err : undefined,
      }),
    )
    return { type: 'SIGNIN_FAILED' }
  }
}
