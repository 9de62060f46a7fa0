/** The `runRedirectCallback` command: the app's redirect callback decides every redirect target. */
import { InvalidCallbackUrl } from '../errors.js'
import { isNavigableUrl } from '../security/redirect-target.js'
import type { EffectEnv } from './effect-env.js'
import type { ResultEvent } from '../flow/runtime.js'

/** Runs the redirect callback on a client-supplied URL (the base URL when none was given). */
export async function runRedirectCallback(env: EffectEnv, params: { url?: unknown }): Promise<ResultEvent> {
  const url = typeof params.url === 'string' && params.url !== '' ? params.url : env.baseUrl
  try {
    const decided = await env.config.callbacks.redirect({ url, baseUrl: env.baseUrl })
    if (typeof decided !== 'string' || !isNavigableUrl(decided)) {
      env.config.logger.error(new InvalidCallbackUrl('the redirect callback returned something a browser cannot be sent to', { returned: String(decided).slice(0, 100) }))
      return { type: 'REDIRECT_FAILED' }
    }
    return { type: 'REDIRECT_RESOLVED', url: decided }
  } catch (err) {
    env.config.logger.error(new InvalidCallbackUrl('the redirect callback threw', { err: err instanceof Error ? err : undefined }))
    return { type: 'REDIRECT_FAILED' }
  }
}
