/**
 * Turns the config's `providers` array into the merged provider objects the runtime uses: factories called,
 * user options merged over the factory defaults, ids checked for uniqueness.
 */
import { InvalidEndpoints, InvalidProvider, MissingAuthorize } from '../errors.js'
import { withHint } from '../logger.js'
import { readEndpoint } from '../providers-internal/oauth-endpoint.js'
import type {
  CredentialsConfig,
  EmailConfig,
  OAuthConfig,
  Provider,
  ProviderConfig,
  WebAuthnConfig,
} from '../types/providers.js'

/** A provider after merging, before per-origin URLs are attached. */
export type MergedProvider =
  | (OAuthConfig & { kind: 'oauth' })
  | (CredentialsConfig & { kind: 'credentials' })
  | (EmailConfig & { kind: 'email' })
  | (WebAuthnConfig & { kind: 'webauthn' })

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype
}

/** Deep merge for plain objects; arrays and class instances are replaced, not merged. */
export function mergeOptions<T extends object>(defaults: T, overrides: unknown): T {
  if (!isPlainObject(overrides)) return defaults
  const out: Record<string, unknown> = { ...(defaults as Record<string, unknown>) }
  for (const key of Object.keys(overrides)) {
    const value = overrides[key]
    if (value === undefined) continue
    const current = out[key]
    out[key] = isPlainObject(current) && isPlainObject(value) ? mergeOptions(current, value) : value
  }
  // Symbol-keyed settings (customFetch) are copied as given.
  for (const symbol of Object.getOwnPropertySymbols(overrides))
    out[symbol as unknown as string] = (overrides as Record<symbol, unknown>)[symbol]
  return out as T
}

/**
 * An OAuth endpoint default written as a URL string (GitLab's `authorization`, as in Auth.js) in its object form
 * when the user's options override it with an object: `authorization: { params: { scope } }` then keeps the URL and
 * replaces the scope, instead of replacing the whole endpoint and losing the URL.
 */
function endpointDefaultsAsObjects(defaults: Record<string, unknown>, overrides: unknown): Record<string, unknown> {
  if (!isPlainObject(overrides) || (defaults.type !== 'oauth' && defaults.type !== 'oidc')) return defaults
  const out = { ...defaults }
  for (const key of ['authorization', 'token', 'userinfo']) {
    const value = out[key]
    if (typeof value === 'string' && isPlainObject(overrides[key])) out[key] = readEndpoint(value)
  }
  return out
}

/**
 * An OAuth provider must say where its endpoints are: an `issuer` (or `wellKnown`) to discover them, or all of
 * `authorization`, `token` and `userinfo` (a userinfo `request` function stands for its URL). Checked with the
 * configuration, so a provider that could never sign anyone in fails every action, as it does in Auth.js, instead
 * of only the sign-in that reaches it. The message starts with Auth.js's text for the same mistake.
 */
function assertEndpointsConfigured(provider: OAuthConfig): void {
  if (provider.issuer || provider.wellKnown) return
  const missing = (['authorization', 'token', 'userinfo'] as const).find((key) => {
    const endpoint = provider[key]
    if (typeof endpoint === 'string') return false
    return !endpoint?.url && !(key === 'userinfo' && typeof endpoint?.request === 'function')
  })
  if (!missing) return
  const envName = `AUTH_${provider.id.toUpperCase().replace(/-/g, '_')}_ISSUER`
  throw withHint(
    new InvalidEndpoints(
      `Provider "${provider.id}" is missing both \`issuer\` and \`${missing}\` endpoint config. At least one of them is required`,
    ),
    `Set the provider's \`issuer\` (or ${envName}) to its OpenID Connect issuer URL, or give it \`authorization\`, \`token\` and \`userinfo\` URLs`,
  )
}

/** Calls provider factories and merges each provider's `options` (the user's config) over its defaults. */
export function mergeProviders(providers: readonly Provider[]): MergedProvider[] {
  const seen = new Set<string>()
  return providers.map((entry) => {
    const config = (typeof entry === 'function' ? (entry as () => ProviderConfig)() : entry) as ProviderConfig & {
      options?: unknown
    }
    if (!config || typeof config !== 'object' || typeof config.id !== 'string' || !config.type) {
      throw new InvalidProvider('a provider has no id or type')
    }
    const { options, ...defaults } = config
    const merged = mergeOptions(endpointDefaultsAsObjects(defaults, options) as ProviderConfig, options)
    if (!/^[A-Za-z0-9_-]+$/.test(merged.id)) throw new InvalidProvider(`provider id "${merged.id}" must be URL-safe`)
    if (seen.has(merged.id)) throw new InvalidProvider(`provider id "${merged.id}" is used twice`)
    seen.add(merged.id)
    switch (merged.type) {
      case 'oauth':
      case 'oidc':
        assertEndpointsConfigured(merged)
        return { ...merged, kind: 'oauth' }
      case 'credentials':
        if (typeof merged.authorize !== 'function') {
          throw withHint(
            new MissingAuthorize('Must define an authorize() handler to use credentials authentication provider'),
            `Give the credentials provider "${merged.id}" an \`authorize\` function`,
          )
        }
        return { ...merged, kind: 'credentials' }
      case 'email':
        return { ...merged, kind: 'email' }
      case 'webauthn':
        return { ...merged, kind: 'webauthn' }
      default:
        throw new InvalidProvider(`provider "${String((merged as { id: string }).id)}" has an unknown type`)
    }
  })
}
