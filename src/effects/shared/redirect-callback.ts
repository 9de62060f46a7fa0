/** The `runRedirectCallback` command: the app's redirect callback decides every redirect target. */
import { InvalidCallbackUrl } from '../../errors.js'
import { decideDefaultRedirect, defaultRedirect, isNavigableUrl } from '../../security/redirect-target.js'
import type { EffectEnv } from './effect-env.js'

/** What the redirect callback decided: a target, or that there is none a browser can be sent to. */
export type RedirectResult = Awaited<ReturnType<typeof runRedirectCallback>>

/** The verdict on what the redirect callback returned. */
function verdictOn(env: EffectEnv, decided: unknown) {
  if (typeof decided !== 'string' || !isNavigableUrl(decided)) {
    env.config.logger.error(
      new InvalidCallbackUrl('the redirect callback returned something a browser cannot be sent to', {
        returned: String(decided).slice(0, 100),
      }),
    )
    return { type: 'REDIRECT_FAILED' } as const
  }
  return { type: 'REDIRECT_RESOLVED', url: decided } as const
}

/**
 * Runs the redirect callback on a client-supplied URL (the base URL when none was given). The built-in callback is
 * synchronous, and is answered without a promise.
 */
export function runRedirectCallback(env: EffectEnv, params: { url?: unknown }) {
  const url = typeof params.url === 'string' && params.url !== '' ? params.url : env.baseUrl
  if (env.config.callbacks.redirect === defaultRedirect) {
    // The built-in decision says when its target came out of an http(s) URL parse: no second parse to vet it.
    const decided = decideDefaultRedirect(url, env.baseUrl)
    return decided.navigable
      ? ({ type: 'REDIRECT_RESOLVED', url: decided.target } as const)
      : verdictOn(env, decided.target)
  }
  return runAppRedirectCallback(env, url)
}

async function runAppRedirectCallback(env: EffectEnv, url: string) {
  try {
    return verdictOn(env, await env.config.callbacks.redirect({ url, baseUrl: env.baseUrl }))
  } catch (err) {
    env.config.logger.error(
      new InvalidCallbackUrl('the redirect callback threw', { err: err instanceof Error ? err : undefined }),
    )
    return { type: 'REDIRECT_FAILED' } as const
  }
}
