/**
 * Defaults from environment variables, with the same names and precedence Auth.js documents, so a deployment's
 * `.env` keeps working after the switch: AUTH_SECRET (and AUTH_SECRET_1..3 for rotation), AUTH_URL, AUTH_TRUST_HOST,
 * AUTH_REDIRECT_PROXY_URL, and AUTH_<PROVIDER>_ID / _SECRET / _ISSUER.
 */
import { createLogger, type LoggerInstance } from '../logger.js'
import type { ProviderConfig } from '../types/providers.js'
import type { AuthAction, AuthConfig } from '../types/index.js'

type EnvObject = Record<string, string | undefined>

function envOf(envObject: unknown): EnvObject {
  return typeof envObject === 'object' && envObject !== null ? (envObject as EnvObject) : {}
}

/** `AUTH_` + the provider id in upper snake case: `microsoft-entra-id` → `AUTH_MICROSOFT_ENTRA_ID`. */
function providerEnvPrefix(id: string): string {
  return `AUTH_${id.toUpperCase().replace(/-/g, '_')}`
}

type ProviderFactory = (options: Record<string, string>) => ProviderConfig

/**
 * A provider given as its factory (`providers: [MicrosoftEntraID]`) is called as Auth.js calls it: once for its id,
 * then with AUTH_<ID>_ID / _SECRET / _ISSUER / _KEY as its options, so the variables win over the factory's own
 * defaults (Entra ID's `common` tenant) and reach whatever the factory builds from them.
 */
function callWithEnv(factory: ProviderFactory, env: EnvObject): ProviderConfig {
  const prefix = providerEnvPrefix(factory({}).id)
  const options: Record<string, string> = {}
  for (const [option, suffix] of [
    ['clientId', 'ID'],
    ['clientSecret', 'SECRET'],
    ['issuer', 'ISSUER'],
    ['apiKey', 'KEY'],
  ] as const) {
    const value = env[`${prefix}_${suffix}`]
    if (value) options[option] = value
  }
  return factory(options)
}

/**
 * Fills unset options of `config` from environment variables. Values the config already has always win.
 * Secrets: when the config has none, AUTH_SECRET, then AUTH_SECRET_1..3 each placed in front (so the highest-numbered
 * variable is the newest secret, the one new tokens are sealed with; every one of them still opens old tokens).
 * @param suppressBasePathWarning for framework authors that set `basePath` themselves
 */
export function setEnvDefaults(envObject: unknown, config: AuthConfig, suppressBasePathWarning = false): void {
  const env = envOf(envObject)
  const authUrl = env.AUTH_URL
  if (authUrl) {
    try {
      const pathname = new URL(authUrl).pathname
      if (config.basePath) {
        if (!suppressBasePathWarning && pathname !== '/') createLogger(config).warn('env-url-basepath-redundant')
      } else if (pathname !== '/') {
        config.basePath = pathname.replace(/\/+$/, '')
      }
    } catch {
      // An unparsable AUTH_URL leaves the base path at its default; createActionURL reports it when used.
    }
  }
  config.basePath ??= '/auth'

  const secretList = Array.isArray(config.secret) ? config.secret : config.secret ? [config.secret] : []
  if (secretList.length === 0) {
    const secrets: string[] = []
    if (env.AUTH_SECRET) secrets.push(env.AUTH_SECRET)
    for (const n of [1, 2, 3]) {
      const rotated = env[`AUTH_SECRET_${n}`]
      if (rotated) secrets.unshift(rotated)
    }
    if (secrets.length > 0) config.secret = secrets
  }

  config.url ??= env.AUTH_URL
  config.redirectProxyUrl ??= env.AUTH_REDIRECT_PROXY_URL
  config.redirectProxyAllowedOrigins ??= listFromEnv(env.AUTH_REDIRECT_PROXY_ALLOWED_ORIGINS)
  if (config.trustHost === undefined) {
    const declared = env.AUTH_TRUST_HOST
    config.trustHost =
      declared !== undefined
        ? declared !== 'false' && declared !== '0' && declared !== ''
        : Boolean(env.AUTH_URL || env.VERCEL || env.CF_PAGES || env.NODE_ENV !== 'production')
  }

  config.providers = (config.providers ?? []).map((entry) => {
    const provider = (
      typeof entry === 'function' ? callWithEnv(entry as ProviderFactory, env) : entry
    ) as ProviderConfig
    // E-mail vendors read their API key from AUTH_<ID>_KEY, as in Auth.js.
    if (provider.type === 'email') {
      provider.apiKey ??= env[`${providerEnvPrefix(provider.id)}_KEY`]
      return provider
    }
    if (provider.type !== 'oauth' && provider.type !== 'oidc') return provider
    const prefix = providerEnvPrefix(provider.id)
    provider.clientId ??= env[`${prefix}_ID`]
    provider.clientSecret ??= env[`${prefix}_SECRET`]
    // For OAuth providers too, as in Auth.js: an `oauth` provider with an issuer discovers its endpoints from it.
    provider.issuer ??= env[`${prefix}_ISSUER`]
    return provider
  })
}

/** A comma-separated variable as a list, or undefined when unset or empty. */
export function listFromEnv(value: string | undefined): string[] | undefined {
  const list = value
    ?.split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
  return list && list.length > 0 ? list : undefined
}

/** The process environment where there is one (Node, Bun, Deno's compatibility layer), else an empty record. */
export function processEnv(): EnvObject {
  return typeof process === 'undefined' || !process.env ? {} : process.env
}

function firstHeaderValue(value: string | null): string | undefined {
  const first = value?.split(',')[0]?.trim()
  return first ? first : undefined
}

/**
 * The URL of an action, from AUTH_URL's origin when set, else from the request's (forwarded) host and protocol.
 * The path is `config.basePath` when given: it is where the handler is mounted, so a URL under another path would
 * reach nothing. When AUTH_URL names a path (not `/`) written otherwise than `basePath` (a trailing slash counts,
 * as in Auth.js), `basePath` wins and `env-url-basepath-mismatch` is warned with the code alone, as Auth.js calls
 * `logger.warn`; both paths go to the debug line. Without `basePath`, AUTH_URL's path is used, else `/auth`.
 */
export function createActionURL(
  action: AuthAction,
  protocol: string,
  headers: Headers,
  envObject: unknown,
  config: { basePath?: string; logger?: Partial<LoggerInstance>; debug?: boolean },
): URL {
  const env = envOf(envObject)
  const configured = config.basePath?.replace(/\/+$/, '')
  const basePath = configured ?? '/auth'
  const authUrl = env.AUTH_URL
  if (authUrl) {
    const url = new URL(authUrl)
    const envPath = url.pathname.replace(/\/+$/, '')
    if (configured === undefined) return new URL(`${url.origin}${envPath || basePath}/${action}`)
    const given = config.basePath ?? ''
    if (url.pathname !== '/' && given !== '' && given !== '/' && url.pathname !== given) {
      const logger = createLogger(config)
      logger.warn('env-url-basepath-mismatch')
      logger.debug('env-url-basepath-mismatch', { authUrlPath: url.pathname, basePath: given })
    }
    return new URL(`${url.origin}${configured}/${action}`)
  }
  const host = firstHeaderValue(headers.get('x-forwarded-host')) ?? headers.get('host') ?? 'localhost'
  const rawProtocol = firstHeaderValue(headers.get('x-forwarded-proto')) ?? protocol ?? 'https'
  const scheme = rawProtocol.endsWith(':') ? rawProtocol : `${rawProtocol}:`
  return new URL(`${scheme}//${host}${basePath}/${action}`)
}
