/**
 * Resolves an OAuth 2 / OIDC provider once per config: the user's options merged over the factory defaults,
 * endpoints in one shape, checks completed, URLs attached, and every setting that could only fail later checked now,
 * with the option's name in the error.
 */
import { InvalidCheck, InvalidEndpoints, InvalidProvider } from '../errors.js'
import { customFetch } from '../types/symbols.js'
import { isAllowedEndpointUrl } from './loopback-host.js'
import { mergeOAuthOptions } from './merge-oauth-options.js'
import { readEndpoint } from './oauth-endpoint.js'
import { defaultAccount, defaultProfile } from './profile-defaults.js'
import type { ChecksType, OAuthConfig, OAuthConfigInternal } from '../types/providers.js'

/**
 * An OAuth provider of any profile type (`GitHub()` returns `OAuthConfig<GitHubProfile>`): `P` only appears as the
 * parameter of `profile()`, so `never` admits them all.
 */
export type OAuthConfigOfAnyProfile = OAuthConfig<never>

/** Client authentication methods at the token endpoint that Authchart can perform. */
export const supportedTokenEndpointAuthMethods = [
  'client_secret_basic',
  'client_secret_post',
  'client_secret_jwt',
  'none',
] as const

const knownChecks: readonly ChecksType[] = ['pkce', 'state', 'nonce', 'none']

function assertEndpointUrl(providerId: string, field: string, value: string | undefined): void {
  if (value === undefined) return
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new InvalidEndpoints(`provider "${providerId}": ${field} is not a valid URL`, { check: 'config', field })
  }
  if (!isAllowedEndpointUrl(url)) {
    throw new InvalidEndpoints(
      `provider "${providerId}": ${field} must use https (plain http only on loopback hosts)`,
      {
        check: 'config',
        field,
      },
    )
  }
}

function resolveChecks(provider: OAuthConfig, redirectProxyUrl: string | undefined): ChecksType[] {
  const checks = [...(provider.checks ?? ['pkce'])]
  for (const check of checks) {
    if (!knownChecks.includes(check)) {
      throw new InvalidCheck(`provider "${provider.id}": checks contains unknown value "${String(check)}"`, {
        check: 'config',
        field: 'checks',
      })
    }
  }
  // The nonce binds an ID token to the flow; plain OAuth 2 has no ID token to bind, so asking for it is a mistake.
  if (checks.includes('nonce') && provider.type !== 'oidc') {
    throw new InvalidCheck(`provider "${provider.id}": checks "nonce" needs an OIDC provider (type "oidc")`, {
      check: 'config',
      field: 'checks',
    })
  }
  // Behind a redirect proxy the callback arrives at another origin first; state is what ties it back to this flow.
  if (redirectProxyUrl && !checks.includes('state')) checks.push('state')
  return checks
}

function assertClientSettings(provider: OAuthConfig): void {
  if (!provider.clientId) {
    const prefix = `AUTH_${provider.id.toUpperCase().replace(/-/g, '_')}`
    throw new InvalidProvider(
      `provider "${provider.id}": clientId is missing. Set ${prefix}_ID (and ${prefix}_SECRET) to the client the provider registered for this site, or pass clientId to the provider`,
      { check: 'config', field: 'clientId' },
    )
  }
  const method = provider.client?.token_endpoint_auth_method
  if (method !== undefined && !(supportedTokenEndpointAuthMethods as readonly string[]).includes(method)) {
    throw new InvalidProvider(
      `provider "${provider.id}": client.token_endpoint_auth_method "${method}" is not supported`,
      {
        check: 'config',
        field: 'client.token_endpoint_auth_method',
      },
    )
  }
  const needsSecret = method === undefined ? false : method !== 'none'
  if (needsSecret && !provider.clientSecret) {
    throw new InvalidProvider(
      `provider "${provider.id}": client.token_endpoint_auth_method "${method ?? ''}" needs a clientSecret`,
      {
        check: 'config',
        field: 'clientSecret',
      },
    )
  }
  const idTokenAlg = provider.client?.id_token_signed_response_alg
  // HMAC-signed ID tokens are keyed with the client secret, so they can only be verified when there is one.
  if (idTokenAlg?.startsWith('HS') && !provider.clientSecret) {
    throw new InvalidProvider(
      `provider "${provider.id}": client.id_token_signed_response_alg "${idTokenAlg}" needs a clientSecret`,
      {
        check: 'config',
        field: 'client.id_token_signed_response_alg',
      },
    )
  }
  if (idTokenAlg === 'none') {
    throw new InvalidProvider(`provider "${provider.id}": unsigned ID tokens (alg "none") are never accepted`, {
      check: 'config',
      field: 'client.id_token_signed_response_alg',
    })
  }
}

function assertEndpoints(provider: OAuthConfig): void {
  const authorization = readEndpoint(provider.authorization).url
  const token = readEndpoint(provider.token).url
  const discoverable = Boolean(provider.issuer || provider.wellKnown)
  if (provider.type === 'oidc' && !discoverable) {
    throw new InvalidEndpoints(`provider "${provider.id}": an OIDC provider needs issuer or wellKnown`, {
      check: 'config',
      field: 'issuer',
    })
  }
  if (provider.type === 'oauth' && !discoverable && !(authorization && token)) {
    throw new InvalidEndpoints(
      `provider "${provider.id}": needs issuer or wellKnown, or both authorization and token URLs`,
      {
        check: 'config',
        field: 'authorization',
      },
    )
  }
  assertEndpointUrl(provider.id, 'issuer', provider.issuer)
  assertEndpointUrl(provider.id, 'wellKnown', provider.wellKnown)
  assertEndpointUrl(provider.id, 'authorization', authorization)
  assertEndpointUrl(provider.id, 'token', token)
  assertEndpointUrl(provider.id, 'userinfo', readEndpoint(provider.userinfo).url)
  assertEndpointUrl(provider.id, 'jwks_endpoint', provider.jwks_endpoint)
}

function proxiedCallbackUrl(provider: OAuthConfig, globalProxyUrl: string | undefined): string | undefined {
  const proxy = provider.redirectProxyUrl ?? globalProxyUrl
  if (!proxy) return undefined
  // As in Auth.js: a form_post callback is a cross-site POST that a proxy cannot forward, so the proxy is not used.
  if (readEndpoint(provider.authorization).params.response_mode === 'form_post') return undefined
  assertEndpointUrl(provider.id, 'redirectProxyUrl', proxy)
  const base = proxy.replace(/\/+$/, '')
  const suffix = `/callback/${provider.id}`
  // Idempotent, so resolving an already-resolved provider does not append the path twice.
  return base.endsWith(suffix) ? base : `${base}${suffix}`
}

/** Each normalised provider's source object (see `providerSource`). */
const sources = new WeakMap<OAuthConfigInternal, object>()

/**
 * The provider object a normalised provider was made from. A deployment that trusts the Host header normalises a
 * provider once per origin it is reached under (the callback URL differs), but what is fetched about the provider
 * (its discovery document, its keys) is the same for all of them: keyed by the source, it is fetched once, not once
 * per Host a client sends.
 */
export function providerSource(provider: OAuthConfigInternal): object {
  return sources.get(provider) ?? provider
}

/**
 * Resolves an OAuth or OIDC provider for the runtime.
 * @param provider the factory's output (with the user's config in `options`) or a hand-written provider object
 * @param urls the provider's sign-in and callback URLs, and the global `redirectProxyUrl` when set
 * @returns the provider with defaults applied, endpoints as `{ url, params }`, and its checks completed
 * @throws InvalidEndpoints when no way to reach the provider is configured or a URL is not https (loopback excepted)
 * @throws InvalidCheck when `checks` holds an unknown value, or `nonce` on a plain OAuth 2 provider
 * @throws InvalidProvider when `clientId` is missing or a client setting cannot be honoured
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-3 (endpoints) and RFC 7636 (PKCE)
 */
export function normalizeOAuthProvider(
  provider: OAuthConfigOfAnyProfile,
  urls: { signinUrl: string; callbackUrl: string; redirectProxyUrl?: string },
): OAuthConfigInternal {
  const type: string = provider.type
  if (type !== 'oauth' && type !== 'oidc') {
    throw new InvalidProvider(`provider "${provider.id}" is not an OAuth or OIDC provider`, {
      check: 'config',
      field: 'type',
    })
  }
  // From here on the vendor's profile type is erased: its profile() receives whatever its endpoint returned.
  const merged = mergeOAuthOptions(provider as OAuthConfig)
  assertClientSettings(merged)
  assertEndpoints(merged)
  const redirectProxyUrl = proxiedCallbackUrl(merged, urls.redirectProxyUrl)
  const resolved: OAuthConfigInternal = {
    ...merged,
    authorization: readEndpoint(merged.authorization),
    token: readEndpoint(merged.token),
    userinfo: readEndpoint(merged.userinfo),
    checks: resolveChecks(merged, redirectProxyUrl),
    profile: merged.profile ?? defaultProfile,
    account: merged.account ?? defaultAccount,
    signinUrl: urls.signinUrl,
    callbackUrl: urls.callbackUrl,
  }
  if (redirectProxyUrl) resolved.redirectProxyUrl = redirectProxyUrl
  else delete resolved.redirectProxyUrl
  if (merged[customFetch]) resolved[customFetch] = merged[customFetch]
  sources.set(resolved, provider)
  return resolved
}

/**
 * The redirect proxy's callback URL for this provider (its own `redirectProxyUrl`, else the global one), or undefined
 * when none is set or the provider answers with `form_post`. Needs no client settings: a proxy only forwards.
 * @throws InvalidEndpoints when the proxy URL is not a valid https URL (plain http only on loopback hosts)
 */
export function redirectProxyCallbackUrl(
  provider: OAuthConfigOfAnyProfile,
  globalProxyUrl: string | undefined,
): string | undefined {
  return proxiedCallbackUrl(mergeOAuthOptions(provider as OAuthConfig), globalProxyUrl)
}

/** The `redirect_uri` to send for this provider: the redirect proxy's callback when one is set, else our own. */
export function oauthRedirectUri(provider: OAuthConfigInternal): string {
  return provider.redirectProxyUrl ?? provider.callbackUrl
}
