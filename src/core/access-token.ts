/**
 * `getAccessToken(request, config, providerId)`: a provider's access token for the signed-in user of an app request,
 * valid for at least the provider's `tokenRefresh.margin`, renewed first when it is not (docs/token-refresh.md). It
 * runs the token refresh machine through the one runtime, with the request's session cookie.
 *
 * It never throws for a missing session, a dead refresh token, an unreachable provider or a broken configuration:
 * each is an `error` in the answer, with the details in the server log. A JWT session that got new tokens comes
 * back as `setCookie` lines, which the app's response must carry.
 */
import { AdapterError, AuthError, InvalidConfig } from '../errors.js'
import { createLogger } from '../logger.js'
import { databaseSessionTokens } from '../effects/token-refresh/database-session-tokens.js'
import { jwtSessionTokens } from '../effects/token-refresh/jwt-session-tokens.js'
import { tokenRefreshEffects } from '../effects/token-refresh/token-refresh-flow.js'
import { readChunkedCookie } from '../session/cookie-chunks.js'
import { parseCookieHeader, serializeCookie } from '../session/cookie-header.js'
import type { ResolvedTokenRefresh } from '../effects/shared/effect-env.js'
import { scalarText } from '../security/scalar-text.js'
import type { AuthConfig } from '../types/index.js'
import type { OAuthConfig, OAuthConfigInternal } from '../types/providers.js'
import type { AccessTokenError, AccessTokenResult } from '../types/token-refresh.js'
import { resolveConfig, type ResolvedConfig } from './config.js'
import { createContext, type RequestContext } from './context.js'
import { applySessionOutcome, effectEnv, runMachine } from './effect-outcome.js'
import { oauthProviderFor } from './oauth-providers.js'

function failed(error: AccessTokenError, setCookie: string[] = []): AccessTokenResult {
  return { error, setCookie }
}

/** The context of an app request (not one of the auth endpoints): its URL, its cookies, no body. */
function contextOf(config: ResolvedConfig, request: Request): RequestContext {
  const url = new URL(request.url)
  return createContext(
    config,
    {
      request,
      url,
      method: 'GET',
      action: 'session',
      cookies: parseCookieHeader(request.headers.get('cookie')),
      query: url.searchParams,
      header: (name) => request.headers.get(name),
    },
    Date.now(),
  )
}

/** The configured provider that may refresh, with its settings, or the reason it may not. */
function refreshingProvider(
  config: ResolvedConfig,
  providerId: string,
): { configured: OAuthConfig; settings: ResolvedTokenRefresh } {
  const provider = config.providersById.get(providerId)
  if (!provider || provider.kind !== 'oauth')
    throw new InvalidConfig(
      `getAccessToken: "${scalarText(providerId).slice(0, 60)}" is no OAuth or OIDC provider of this config`,
    )
  const settings = config.tokenRefresh.get(provider.id)
  if (!settings) throw new InvalidConfig(`getAccessToken: provider "${provider.id}" has no tokenRefresh option`)
  return { configured: provider, settings }
}

/**
 * A provider's access token for the request's signed-in user.
 * @param request the app's request (its `Cookie` header carries the session)
 * @param config the configuration `Auth()` is given
 * @param providerId the id of an OAuth / OIDC provider with the `tokenRefresh` option
 * @returns `{ accessToken, expiresAt, refreshed, setCookie }`, or `{ error, setCookie }`; never throws
 */
export async function getAccessToken(
  request: Request,
  config: AuthConfig,
  providerId: string,
): Promise<AccessTokenResult> {
  let resolved: ResolvedConfig
  try {
    resolved = resolveConfig(config)
  } catch (error) {
    createLogger(config ?? {}).error(error instanceof Error ? error : new AuthError(String(error)))
    return failed('Configuration')
  }
  let ctx: RequestContext
  let provider: OAuthConfigInternal
  let settings: ResolvedTokenRefresh
  try {
    if (!resolved.trustHost)
      throw new InvalidConfig(
        'host must be trusted: set url (or AUTH_URL), or trustHost: true (or AUTH_TRUST_HOST=true)',
      )
    const { configured, settings: found } = refreshingProvider(resolved, providerId)
    settings = found
    ctx = contextOf(resolved, request)
    provider = oauthProviderFor(ctx, configured)
  } catch (error) {
    resolved.logger.error(error instanceof Error ? error : new AuthError(String(error)))
    return failed('Configuration')
  }
  const env = effectEnv(ctx)
  const sessionCookie = readChunkedCookie(ctx.cookies.sessionToken.name, ctx.req.cookies)
  let result
  try {
    const store =
      resolved.session.strategy === 'database' && resolved.adapter
        ? databaseSessionTokens(env, resolved.adapter, provider.id, sessionCookie)
        : jwtSessionTokens(env, provider.id, sessionCookie)
    const handlers = tokenRefreshEffects(env, { provider, store })
    const event = {
      type: 'ACCESS_TOKEN_REQUESTED',
      providerId: provider.id,
      now: ctx.now,
      margin: settings.margin,
      endSessionOnFailure: settings.onFailure === 'endSession',
    }
    result = await runMachine(ctx, resolved.machines.tokenRefresh, event, handlers)
  } catch (error) {
    // A store that could not be reached; adapter failures were logged by the adapter wrapper already.
    if (!(error instanceof AdapterError))
      resolved.logger.error(error instanceof Error ? error : new AuthError(String(error)))
    return failed('RefreshUnavailable')
  }
  applySessionOutcome(ctx, result.scratch)
  const setCookie = ctx.setCookies.map(serializeCookie)
  const state = result.value
  // The tokens the run ended with: in `valid` the loaded ones, in `refreshed` the ones it saved.
  const tokens = state === 'valid' || state === 'refreshed' ? result.scratch.tokens : undefined
  if (tokens?.access_token) {
    return {
      accessToken: tokens.access_token,
      ...(tokens.expires_at !== undefined ? { expiresAt: tokens.expires_at } : {}),
      refreshed: state === 'refreshed',
      setCookie,
    }
  }
  const errors: Record<string, AccessTokenError> = {
    noSession: 'SessionRequired',
    noTokens: 'NoProviderTokens',
    refused: 'RefreshTokenError',
    sessionEnded: 'RefreshTokenError',
  }
  return failed(errors[state] ?? 'RefreshUnavailable', setCookie)
}
