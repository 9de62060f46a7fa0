/**
 * The `tokenRefresh` option of OAuth / OIDC providers, read once per config: defaults applied, nonsense refused at
 * start-up with the option's name in the error (docs/token-refresh.md).
 */
import { InvalidConfig } from '../errors.js'
import type { ResolvedTokenRefresh } from '../effects/shared/effect-env.js'
import type { RefreshFailureAction } from '../types/token-refresh.js'
import type { MergedProvider } from './provider-setup.js'

/** Seconds of validity an access token must have left when handed out, unless the provider says otherwise. */
export const defaultRefreshMargin = 60

const failureActions: readonly RefreshFailureAction[] = ['markSession', 'endSession']

function resolveOne(providerId: string, option: unknown): ResolvedTokenRefresh | undefined {
  if (option === undefined || option === false) return undefined
  if (option === true) return { margin: defaultRefreshMargin, onFailure: 'markSession' }
  if (typeof option !== 'object' || option === null || Array.isArray(option))
    throw new InvalidConfig(`provider "${providerId}": tokenRefresh must be true or an object`)
  const { margin = defaultRefreshMargin, onFailure = 'markSession' } = option as Record<string, unknown>
  if (typeof margin !== 'number' || !Number.isFinite(margin) || margin < 0)
    throw new InvalidConfig(`provider "${providerId}": tokenRefresh.margin must be a non-negative number of seconds`)
  if (!failureActions.includes(onFailure as RefreshFailureAction))
    throw new InvalidConfig(`provider "${providerId}": tokenRefresh.onFailure must be "markSession" or "endSession"`)
  return { margin, onFailure: onFailure as RefreshFailureAction }
}

/** The providers that keep and refresh their tokens, by id. */
export function resolveTokenRefresh(providers: readonly MergedProvider[]): Map<string, ResolvedTokenRefresh> {
  const settings = new Map<string, ResolvedTokenRefresh>()
  for (const provider of providers) {
    const option = (provider as { tokenRefresh?: unknown }).tokenRefresh
    if (option !== undefined && provider.kind !== 'oauth')
      throw new InvalidConfig(`provider "${provider.id}": tokenRefresh is for OAuth and OIDC providers only`)
    const resolved = resolveOne(provider.id, option)
    if (resolved) settings.set(provider.id, resolved)
  }
  return settings
}
