/**
 * The openid-client `Configuration` of a provider: discovered from its issuer or `wellKnown` URL, or built from
 * explicit endpoints for plain OAuth 2 providers. Built once per provider (and timeout) and cached, so discovery
 * runs on the first sign-in, not on every request. The cache is keyed by the provider's source (`providerSource`):
 * nothing here depends on the origin a provider was normalised for, and a site reached under many Hosts would
 * otherwise fetch the discovery document and the key set once per Host.
 */
import * as client from 'openid-client'
import { createRemoteJWKSet, customFetch as joseCustomFetch } from 'jose'
import type { AuthError } from '../../errors.js'
import { providerSource } from '../../providers-internal/normalize-oauth.js'
import { isLoopbackHost } from '../../providers-internal/loopback-host.js'
import { readEndpoint } from '../../providers-internal/oauth-endpoint.js'
import type { OAuthConfigInternal } from '../../types/providers.js'
import { clientAuthentication } from './client-authentication.js'
import { findAuthError, isTimeout, signInFailure } from './oauth-failure.js'
import { asOpenidClientFetch, createProviderFetch, type ProviderFetch } from './provider-fetch.js'
import { guardTokenEndpoint, type IdTokenKey } from './token-response-checks.js'

/** A provider's client, ready for the authorization request and the code exchange. */
export interface ProviderClient {
  config: client.Configuration
  /** Whether the issuer is really known (discovered or configured) rather than a placeholder for openid-client. */
  issuerKnown: boolean
  fetch: ProviderFetch
}

const cache = new WeakMap<object, Map<number, Promise<ProviderClient>>>()

function isJsonValue(value: unknown): value is string | number | boolean | string[] {
  if (['string', 'number', 'boolean'].includes(typeof value)) return true
  return Array.isArray(value) && value.every((item) => typeof item === 'string')
}

function clientMetadata(provider: OAuthConfigInternal): Partial<client.ClientMetadata> {
  const metadata: Partial<client.ClientMetadata> = {}
  // openid-client clones its metadata; only plain JSON settings survive that, and only they mean anything to it.
  for (const [key, value] of Object.entries(provider.client ?? {})) if (isJsonValue(value)) metadata[key] = value
  if (provider.clientSecret) metadata.client_secret = provider.clientSecret
  return metadata
}

function configuredUrls(provider: OAuthConfigInternal): string[] {
  const endpoints = [provider.authorization, provider.token, provider.userinfo].map(
    (handler) => readEndpoint(handler).url,
  )
  return [provider.issuer, provider.wellKnown, provider.jwks_endpoint, ...endpoints].filter((url): url is string =>
    Boolean(url),
  )
}

/** Plain http is only ever enabled for a provider whose configured URLs all sit on loopback hosts (tests, dev). */
function usesLoopbackHttp(provider: OAuthConfigInternal): boolean {
  const urls = configuredUrls(provider).map((url) => new URL(url))
  return urls.some((url) => url.protocol === 'http:') && urls.every((url) => isLoopbackHost(url.hostname))
}

function needsDiscovery(provider: OAuthConfigInternal): boolean {
  if (provider.type === 'oidc') return true
  return !(readEndpoint(provider.authorization).url && readEndpoint(provider.token).url)
}

/** The issuer a `wellKnown` URL implies (OIDC Discovery §4, RFC 8414 §3), when the URL has one of those forms. */
function issuerImpliedByWellKnown(wellKnown: string): string | undefined {
  const url = new URL(wellKnown)
  const oidcSuffix = '/.well-known/openid-configuration'
  if (url.pathname.endsWith(oidcSuffix)) return `${url.origin}${url.pathname.slice(0, -oidcSuffix.length)}`
  const rfc8414Prefix = '/.well-known/oauth-authorization-server'
  if (url.pathname.startsWith(rfc8414Prefix)) return `${url.origin}${url.pathname.slice(rfc8414Prefix.length)}`
  return undefined
}

const withoutTrailingSlash = (issuer: string) => issuer.replace(/\/+$/, '')

function discoveryFailure(err: unknown, url: URL): AuthError {
  const own = findAuthError(err)
  if (own) return signInFailure('endpoint', own.message, { url: url.origin }, own)
  if (isTimeout(err)) return signInFailure('timeout', 'provider discovery timed out', { url: url.href }, err)
  const cause = (err as { cause?: { expected?: unknown; body?: { issuer?: unknown }; attribute?: unknown } }).cause
  if (cause?.attribute === 'issuer') {
    return signInFailure(
      'discovery',
      'discovery document names another issuer',
      { expected: cause.expected, received: cause.body?.issuer },
      err,
    )
  }
  return signInFailure('discovery', 'provider discovery failed', { url: url.href }, err)
}

async function discover(
  provider: OAuthConfigInternal,
  providerFetch: ProviderFetch,
  timeoutMs: number,
): Promise<client.Configuration> {
  const server = new URL(provider.wellKnown ?? provider.issuer ?? '')
  let config: client.Configuration
  try {
    config = await client.discovery(
      server,
      provider.clientId ?? '',
      clientMetadata(provider),
      clientAuthentication(provider),
      {
        algorithm: provider.type === 'oidc' ? 'oidc' : 'oauth2',
        timeout: timeoutMs / 1000,
        [client.customFetch]: asOpenidClientFetch(providerFetch),
        execute: usesLoopbackHttp(provider) ? [client.allowInsecureRequests] : [],
      },
    )
  } catch (err) {
    throw discoveryFailure(err, server)
  }
  const discoveredIssuer = config.serverMetadata().issuer
  // openid-client compares the issuer only when it derived the well-known URL itself; from a wellKnown URL it trusts
  // the document. OIDC Discovery §4.3: the issuer in the document must be the one the URL was built from.
  const expectedIssuer = provider.wellKnown
    ? (provider.issuer ?? issuerImpliedByWellKnown(provider.wellKnown))
    : undefined
  if (expectedIssuer && withoutTrailingSlash(expectedIssuer) !== withoutTrailingSlash(discoveredIssuer)) {
    throw signInFailure('discovery', 'discovery document names another issuer', {
      expected: expectedIssuer,
      received: discoveredIssuer,
    })
  }
  return config
}

/** Endpoints set explicitly on an OIDC provider win over discovered ones, as they do in Auth.js. */
function withExplicitEndpoints(config: client.Configuration, provider: OAuthConfigInternal): client.Configuration {
  const overrides: Record<string, string> = {}
  const authorization = readEndpoint(provider.authorization).url
  const token = readEndpoint(provider.token).url
  const userinfo = readEndpoint(provider.userinfo).url
  if (authorization) overrides.authorization_endpoint = authorization
  if (token) overrides.token_endpoint = token
  if (userinfo) overrides.userinfo_endpoint = userinfo
  if (provider.jwks_endpoint) overrides.jwks_uri = provider.jwks_endpoint
  if (Object.keys(overrides).length === 0) return config
  return new client.Configuration(
    { ...config.serverMetadata(), ...overrides },
    provider.clientId ?? '',
    clientMetadata(provider),
    clientAuthentication(provider),
  )
}

function explicitConfiguration(provider: OAuthConfigInternal): client.Configuration {
  const authorization = readEndpoint(provider.authorization).url ?? ''
  const metadata: client.ServerMetadata = {
    // openid-client needs some issuer; when none is configured, `issuerKnown` is false and no check relies on it.
    issuer: provider.issuer ?? new URL(authorization).origin,
    authorization_endpoint: authorization,
    token_endpoint: readEndpoint(provider.token).url,
    userinfo_endpoint: readEndpoint(provider.userinfo).url,
    jwks_uri: provider.jwks_endpoint,
  }
  return new client.Configuration(
    metadata,
    provider.clientId ?? '',
    clientMetadata(provider),
    clientAuthentication(provider),
  )
}

function idTokenKey(
  provider: OAuthConfigInternal,
  config: client.Configuration,
  providerFetch: ProviderFetch,
  timeoutMs: number,
): IdTokenKey | undefined {
  if (provider.type !== 'oidc') return undefined
  if (provider.client?.id_token_signed_response_alg?.startsWith('HS'))
    return new TextEncoder().encode(provider.clientSecret ?? '')
  const jwksUri = config.serverMetadata().jwks_uri
  if (!jwksUri)
    throw signInFailure('discovery', 'provider metadata has no jwks_uri to verify ID tokens with', {
      issuer: config.serverMetadata().issuer,
    })
  return createRemoteJWKSet(new URL(jwksUri), {
    timeoutDuration: Math.ceil(timeoutMs),
    [joseCustomFetch]: providerFetch,
  })
}

async function buildProviderClient(provider: OAuthConfigInternal, timeoutMs: number): Promise<ProviderClient> {
  const providerFetch = createProviderFetch(provider, timeoutMs)
  const discovered = needsDiscovery(provider)
  const config = discovered
    ? withExplicitEndpoints(await discover(provider, providerFetch, timeoutMs), provider)
    : explicitConfiguration(provider)
  if (usesLoopbackHttp(provider)) client.allowInsecureRequests(config)
  config.timeout = timeoutMs / 1000
  config[client.customFetch] = asOpenidClientFetch(
    guardTokenEndpoint(provider, config, idTokenKey(provider, config, providerFetch, timeoutMs), providerFetch),
  )
  return { config, issuerKnown: discovered || Boolean(provider.issuer), fetch: providerFetch }
}

/**
 * The provider's client, discovered on first use and cached per source provider and timeout. A failed discovery
 * is not cached, so the next request tries again.
 * @throws OAuthSignInError with `cause.check` `discovery`, `timeout` or `endpoint`
 * @see https://openid.net/specs/openid-connect-discovery-1_0.html and https://www.rfc-editor.org/rfc/rfc8414
 */
export function resolveProviderClient(provider: OAuthConfigInternal, timeoutMs: number): Promise<ProviderClient> {
  const source = providerSource(provider)
  let byTimeout = cache.get(source)
  if (!byTimeout) cache.set(source, (byTimeout = new Map<number, Promise<ProviderClient>>()))
  const cached = byTimeout.get(timeoutMs)
  if (cached) return cached
  const pending = buildProviderClient(provider, timeoutMs)
  byTimeout.set(timeoutMs, pending)
  pending.catch(() => {
    if (byTimeout.get(timeoutMs) === pending) byTimeout.delete(timeoutMs)
  })
  return pending
}
