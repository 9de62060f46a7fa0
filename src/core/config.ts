/**
 * Config resolution, done once per distinct config object: defaults applied, providers merged, cookie sets built,
 * machines configured, the flow store keyed. Per request only the origin-dependent parts are looked up.
 */
import { machineRegistry, type MachineRegistry } from '../../machines/index.js'
import {
  adapterMethodsNeededBy,
  defaultAdapterTimeoutMs,
  requireAdapterMethods,
  wrapAdapter,
  type WrappedAdapter,
} from './adapter-calls.js'
import {
  DuplicateConditionalUI,
  ExperimentalFeatureNotEnabled,
  InvalidConfig,
  MissingAdapter,
  MissingSecret,
  MissingWebAuthnAutocomplete,
  UnsupportedStrategy,
} from '../errors.js'
import {
  defaultJwtCallback,
  defaultSessionCallback,
  defaultSignInCallback,
} from '../effects/shared/default-callbacks.js'
import { configureMachines } from '../flow/extend-machines.js'
import { CookieFlowStore } from '../flow/stores/cookie.js'
import type { ConfigurableFlowStore, FlowStore } from '../types/flow-store.js'
import type { BackchannelLogoutOptions, LogoutStore } from '../types/logout-store.js'
import type { SessionManagementOptions, SessionStore } from '../types/session-store.js'
import type { JWTOptions } from '../types/jwt.js'
import { createLogger, withHint, type LoggerInstance } from '../logger.js'
import { defaultRedirect } from '../security/redirect-target.js'
import { randomId } from '../security/random.js'
import { skipCSRFCheck } from '../types/symbols.js'
import type {
  AuthConfig,
  CallbacksOptions,
  EventCallbacks,
  PagesOptions,
  SessionOptions,
  Theme,
} from '../types/index.js'
import { isOwnableWildcardBase } from './public-suffix.js'
import { defaultBodyTimeoutMs } from './request.js'
import { compileOriginAllowList, originOfUrl, type OriginAllowList } from '../security/origin.js'
import { servedProviderKinds } from './served-providers.js'
import { buildCookieSet, unusedCookieOptions, type CookieSet } from './cookie-set.js'
import { listFromEnv, processEnv } from './env.js'
import { mergeProviders, type MergedProvider } from './provider-setup.js'
import { resolvePageLocales, type PageLocales } from '../pages/locale.js'
import { resolveTokenRefresh } from './token-refresh-config.js'
import type { ResolvedTokenRefresh } from '../effects/shared/effect-env.js'
import type { TokenRefreshLock, TokenRefreshLockSource } from '../types/token-refresh.js'
import { trustedProxiesProblem } from './client-address.js'
import { resolveSecondFactor } from './second-factor-config.js'
import type { ResolvedSecondFactor } from '../effects/shared/second-factor.js'

/** Everything `Auth()` needs that does not depend on the request. */
export interface ResolvedConfig {
  source: AuthConfig
  basePath: string
  secrets: string[]
  providers: MergedProvider[]
  providersById: Map<string, MergedProvider>
  session: SessionOptions
  /** The app's own `jwt.encode` / `jwt.decode`, when it replaced ours (then the slower async path is taken). */
  jwt: { maxAge: number; encode?: JWTOptions['encode']; decode?: JWTOptions['decode'] }
  callbacks: CallbacksOptions
  events: Partial<EventCallbacks>
  pages: Partial<PagesOptions>
  theme: Theme
  /** The languages of the built-in pages (built-in and `theme.locales`), and the one `theme.locale` fixed. */
  pageLocales: PageLocales
  logger: LoggerInstance
  /** The app's adapter, called through a wrapper that turns every failure into a logged `AdapterError`. */
  adapter?: WrappedAdapter
  /** The adapter keeps database sessions' records on their rows (it has `listSessionsByUser`; docs/sessions.md). */
  sessionRecordsOnRow: boolean
  /** The sign-in's second-factor challenge (docs/second-factors.md). */
  secondFactor: ResolvedSecondFactor
  trustHost: boolean
  csrfEnabled: boolean
  /** Cookie sets for plain HTTP and for HTTPS; `useSecureCookies` pins one. */
  cookies: { insecure: CookieSet; secure: CookieSet; forced?: boolean }
  machines: MachineRegistry
  flowStore: FlowStore
  /** Back-channel logout, when configured: its store, and how old a logout token may be. */
  backchannelLogout?: { store: LogoutStore; maxTokenAge: number }
  /** Session management, when configured: the store of session records and revocations. */
  sessionManagement?: { store: SessionStore }
  redirectProxyUrl?: string
  /** The configured origin (`url` / `AUTH_URL`); when set, no URL is ever built from a request header. */
  origin?: string
  /** Origins a redirect proxy forwards to, and a deployment without `origin` may start a proxied sign-in for. */
  redirectProxyAllows: OriginAllowList
  /** Without `origin`: the request origins something leaving the request (a mailed link, a logout target) may use. */
  outboundAllows: OriginAllowList
  providerTimeout: number
  /** Milliseconds a request body may take to arrive. */
  bodyTimeout: number
  webAuthnEnabled: boolean
  /** Providers whose tokens the session keeps and `getAccessToken` renews, by id. */
  tokenRefresh: ReadonlyMap<string, ResolvedTokenRefresh>
  /** Shares token refreshes between instances: the flow store's lock, when it offers one (the Redis store does). */
  refreshLock?: TokenRefreshLock
}

const defaultCallbacks: CallbacksOptions = {
  signIn: defaultSignInCallback,
  redirect: defaultRedirect,
  // By default only name, e-mail and image of the token reach the client.
  session: defaultSessionCallback,
  jwt: defaultJwtCallback,
}

const resolved = new WeakMap<AuthConfig, ResolvedConfig>()

function positiveSeconds(name: string, value: unknown, fallback: number, allowZero = false): number {
  if (value === undefined) return fallback
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw new InvalidConfig(`${name} must be a ${allowZero ? 'non-negative' : 'positive'} number of seconds`)
  }
  return value
}

function resolveBackchannelLogout(
  options: BackchannelLogoutOptions | undefined,
): { store: LogoutStore; maxTokenAge: number } | undefined {
  if (options === undefined) return undefined
  const store = (options as Partial<BackchannelLogoutOptions> | null)?.store
  if (typeof store?.revokedAt !== 'function' || typeof store.claimTokenId !== 'function')
    throw new InvalidConfig('backchannelLogout.store must be a logout store (MemoryLogoutStore or RedisLogoutStore)')
  return { store, maxTokenAge: positiveSeconds('backchannelLogout.maxTokenAge', options.maxTokenAge, 300) }
}

function resolveSessionManagement(options: SessionManagementOptions | undefined): { store: SessionStore } | undefined {
  if (options === undefined) return undefined
  const store = (options as Partial<SessionManagementOptions> | null)?.store
  if (typeof store?.isRevoked !== 'function' || typeof store.put !== 'function' || typeof store.revoke !== 'function')
    throw new InvalidConfig('sessionManagement.store must be a session store (MemorySessionStore or RedisSessionStore)')
  return { store }
}

function positiveMilliseconds(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    throw new InvalidConfig(`${name} must be a positive number of milliseconds`)
  return value
}

function normaliseBasePath(basePath: unknown): string {
  if (basePath === undefined) return '/auth'
  if (typeof basePath !== 'string') throw new InvalidConfig('basePath must be a string')
  const trimmed = basePath.replace(/\/+$/, '')
  if (trimmed === '') return ''
  if (!trimmed.startsWith('/') || /[?#\s]/.test(trimmed))
    throw new InvalidConfig('basePath must be a path such as "/auth"')
  return trimmed
}

function resolveSecrets(secret: AuthConfig['secret']): string[] {
  const list = Array.isArray(secret) ? secret : secret === undefined ? [] : [secret]
  if (list.length === 0 || list.some((s) => typeof s !== 'string' || s.length === 0)) {
    throw withHint(
      new MissingSecret('Please define a `secret`'),
      'Set AUTH_SECRET (or the `secret` option) to a random string of at least 32 characters: ' +
        '`npx authchart secret --write` writes one to .env (run the server with `node --env-file=.env`), ' +
        '`npx authchart secret` prints one; keep it out of the source code',
    )
  }
  return list
}

/** The configured origin: `url`, else `AUTH_URL`; a value that is not an absolute http(s) URL is refused. */
function resolveOrigin(config: AuthConfig): string | undefined {
  const value: unknown = config.url ?? processEnv().AUTH_URL
  if (value === undefined || value === '') return undefined
  const origin = typeof value === 'string' ? originOfUrl(value) : undefined
  if (!origin)
    throw new InvalidConfig(
      'url (or AUTH_URL) must be an absolute http(s) URL without user info, such as "https://app.example.com/auth"',
    )
  return origin
}

/** Compiles one allow-list option (else its environment variable); an entry that is not a usable pattern is refused. */
function resolveAllowList(name: string, configured: unknown, fromEnv: string | undefined) {
  const entries: unknown = configured ?? listFromEnv(fromEnv) ?? []
  if (!Array.isArray(entries) || entries.some((entry) => typeof entry !== 'string')) {
    throw new InvalidConfig(`${name} must be an array of origins`)
  }
  const allows = compileOriginAllowList(
    entries as string[],
    (entry, why) => {
      throw new InvalidConfig(
        `${name}: "${entry.slice(0, 80)}" ${why ?? 'is neither an origin nor a pattern such as "https://*.example.com"'}`,
      )
    },
    isOwnableWildcardBase,
  )
  return { allows, count: entries.length }
}

function resolveProxyAllowList(config: AuthConfig, logger: LoggerInstance): OriginAllowList {
  const { allows, count } = resolveAllowList(
    'redirectProxyAllowedOrigins',
    config.redirectProxyAllowedOrigins,
    processEnv().AUTH_REDIRECT_PROXY_ALLOWED_ORIGINS,
  )
  const proxied =
    config.redirectProxyUrl !== undefined ||
    (config.providers ?? []).some(
      (p) => typeof p === 'object' && p !== null && 'redirectProxyUrl' in p && p.redirectProxyUrl,
    )
  if (proxied && count === 0) logger.warn('redirect-proxy-without-allowlist')
  return allows
}

/**
 * The origins a request may arrive at for something built from its origin to leave it (a mailed link, a logout
 * target), when no `url` is configured. An e-mail provider without either can send nothing: start-up says so.
 */
function resolveOutboundAllowList(
  config: AuthConfig,
  origin: string | undefined,
  providers: MergedProvider[],
  logger: LoggerInstance,
): OriginAllowList {
  const { allows, count } = resolveAllowList('allowedOrigins', config.allowedOrigins, processEnv().AUTH_ALLOWED_ORIGINS)
  if (origin === undefined && count === 0 && providers.some((p) => p.kind === 'email')) {
    logger.warn('email-without-origin', {
      reason:
        'no url (AUTH_URL) and no allowedOrigins (AUTH_ALLOWED_ORIGINS): the e-mail provider sends no link, since a link built from the request Host could point anywhere',
    })
  }
  return allows
}

function build(config: AuthConfig): ResolvedConfig {
  if (!config || typeof config !== 'object') throw new InvalidConfig('the configuration must be an object')
  // Left out, it is the spec's default `[]`; anything else but an array is a mistake.
  if (config.providers !== undefined && !Array.isArray(config.providers))
    throw new InvalidConfig('providers must be an array')
  const proxiesProblem = trustedProxiesProblem(config.trustedProxies)
  if (proxiesProblem) throw new InvalidConfig(`trustedProxies must be ${proxiesProblem}`)
  const logger = createLogger(config)
  const secrets = resolveSecrets(config.secret)
  const providers = mergeProviders(config.providers ?? [])
  const unserved = providers.find((p) => !servedProviderKinds.has(p.kind))
  if (unserved) {
    throw new InvalidConfig(
      `provider "${unserved.id}": ${unserved.kind} sign-in is not available in this release (providers served: ${[...servedProviderKinds].join(', ')})`,
    )
  }
  const adapter = config.adapter
  const strategy = config.session?.strategy ?? (adapter ? 'database' : 'jwt')
  if (strategy !== 'jwt' && strategy !== 'database')
    throw new UnsupportedStrategy(`session strategy "${String(strategy)}" is not supported`)
  if (strategy === 'database' && !adapter)
    throw withHint(
      new MissingAdapter('Database session requires an adapter'),
      'Pass `adapter` (for example KyselyAdapter(db) from authchart/adapters/sql), or set session.strategy to "jwt"',
    )
  if (providers.some((p) => p.kind === 'email') && !adapter)
    throw withHint(
      new MissingAdapter('Email login requires an adapter'),
      'Pass `adapter`: it stores the verification tokens the e-mail links carry',
    )
  if (strategy === 'database')
    requireAdapterMethods(
      adapter,
      [...adapterMethodsNeededBy.databaseSession, 'getUser', 'getUserByEmail'],
      'the database session strategy',
    )
  if (adapter && providers.some((p) => p.kind === 'oauth' || p.kind === 'email'))
    requireAdapterMethods(adapter, adapterMethodsNeededBy.userResolution, 'signing in with OAuth or e-mail')
  if (providers.some((p) => p.kind === 'email'))
    requireAdapterMethods(adapter, adapterMethodsNeededBy.emailSignIn, 'the e-mail provider')
  const tokenRefresh = resolveTokenRefresh(providers)
  if (tokenRefresh.size > 0 && strategy === 'database')
    requireAdapterMethods(adapter, adapterMethodsNeededBy.databaseTokenRefresh, 'token refresh with database sessions')
  const webAuthnEnabled = config.experimental?.enableWebAuthn === true
  if (providers.some((p) => p.kind === 'webauthn') && !webAuthnEnabled) {
    throw new ExperimentalFeatureNotEnabled(
      'WebAuthn is an experimental feature. To enable it, set `experimental.enableWebAuthn` to `true` in your config',
    )
  }
  if (webAuthnEnabled) logger.warn('experimental-webauthn')
  // Passkeys are stored credentials: without the authenticator methods the first registration would fail, so say it now.
  if (providers.some((p) => p.kind === 'webauthn')) {
    if (!adapter)
      throw withHint(
        new MissingAdapter('WebAuthn requires an adapter'),
        "Pass `adapter`: it stores the users' passkeys",
      )
    requireAdapterMethods(
      adapter,
      [...adapterMethodsNeededBy.webAuthn, ...adapterMethodsNeededBy.userResolution],
      'a WebAuthn provider',
    )
  }
  const conditional = providers.filter((p) => p.kind === 'webauthn' && p.enableConditionalUI)
  // The browser offers one autofill list: two providers would fight over it.
  if (conditional.length > 1)
    throw new DuplicateConditionalUI(
      "Multiple webauthn providers have 'enableConditionalUI' set to True. Only one provider can have this option enabled at a time",
    )
  for (const p of conditional) {
    if (p.kind !== 'webauthn') continue
    const fields = Object.values(p.formFields ?? {})
    if (!fields.some((f) => typeof f.autocomplete === 'string' && f.autocomplete.split(/\s+/).includes('webauthn'))) {
      throw new MissingWebAuthnAutocomplete(
        `Provider "${p.id}" has 'enableConditionalUI' set to True, but none of its formFields have 'webauthn' in their autocomplete param`,
      )
    }
  }
  if (config.debug) logger.warn('debug-enabled')
  if (secrets.some((s) => s.length < 32)) logger.warn('secret-too-short')
  const origin = resolveOrigin(config)
  const csrfEnabled = config.skipCSRFCheck !== skipCSRFCheck
  if (!csrfEnabled) logger.warn('csrf-disabled')

  const maxAge = positiveSeconds('session.maxAge', config.session?.maxAge, 30 * 24 * 60 * 60)
  const session: SessionOptions = {
    strategy,
    maxAge,
    updateAge: positiveSeconds('session.updateAge', config.session?.updateAge, 24 * 60 * 60, true),
    generateSessionToken: config.session?.generateSessionToken ?? randomId,
  }
  for (const [name, fn] of Object.entries(config.callbacks ?? {})) {
    if (fn !== undefined && typeof fn !== 'function') throw new InvalidConfig(`callbacks.${name} must be a function`)
  }
  for (const [name, page] of Object.entries(config.pages ?? {})) {
    if (page !== undefined && (typeof page !== 'string' || (!page.startsWith('/') && !/^https?:\/\//.test(page)))) {
      throw new InvalidConfig(`pages.${name} must be a path or an absolute URL`)
    }
  }

  const pageLocales = resolvePageLocales(config.theme)

  const flowStore = config.flowStore ?? new CookieFlowStore()
  for (const setting of unusedCookieOptions(config.cookies)) logger.warn('cookie-option-unused', { setting })
  const cookies = {
    insecure: buildCookieSet(config.useSecureCookies ?? false, config.cookies),
    secure: buildCookieSet(config.useSecureCookies ?? true, config.cookies),
    forced: config.useSecureCookies !== undefined,
  }
  if (isConfigurable(flowStore)) flowStore.configure({ secrets, cookieName: 'authchart.flow' })

  return {
    source: config,
    basePath: normaliseBasePath(config.basePath),
    secrets,
    providers,
    providersById: new Map(providers.map((p) => [p.id, p])),
    session,
    jwt: {
      maxAge: positiveSeconds('jwt.maxAge', config.jwt?.maxAge, maxAge),
      encode: config.jwt?.encode,
      decode: config.jwt?.decode,
    },
    callbacks: { ...defaultCallbacks, ...definedOnly(config.callbacks) },
    events: config.events ?? {},
    secondFactor: resolveSecondFactor(config.secondFactor),
    pages: config.pages ?? {},
    theme: config.theme ?? {},
    pageLocales,
    logger,
    sessionRecordsOnRow: typeof adapter?.listSessionsByUser === 'function',
    adapter: adapter
      ? wrapAdapter(
          adapter,
          logger,
          positiveMilliseconds('adapterTimeout', config.adapterTimeout, defaultAdapterTimeoutMs),
        )
      : undefined,
    // With a configured URL no header is trusted for anything, so there is nothing left to trust.
    trustHost: config.trustHost === true || origin !== undefined,
    csrfEnabled,
    cookies,
    machines: configureMachines(machineRegistry, config.flows, logger),
    flowStore,
    backchannelLogout: resolveBackchannelLogout(config.backchannelLogout),
    sessionManagement: resolveSessionManagement(config.sessionManagement),
    redirectProxyUrl: config.redirectProxyUrl,
    origin,
    redirectProxyAllows: resolveProxyAllowList(config, logger),
    outboundAllows: resolveOutboundAllowList(config, origin, providers, logger),
    providerTimeout: positiveMilliseconds('providerTimeout', config.providerTimeout, 5000),
    bodyTimeout: positiveMilliseconds('bodyTimeout', config.bodyTimeout, defaultBodyTimeoutMs),
    webAuthnEnabled,
    tokenRefresh,
    refreshLock: tokenRefresh.size > 0 && offersRefreshLock(flowStore) ? flowStore.tokenRefreshLock() : undefined,
  }
}

function offersRefreshLock(store: FlowStore): store is FlowStore & TokenRefreshLockSource {
  return typeof (store as Partial<TokenRefreshLockSource>).tokenRefreshLock === 'function'
}

function definedOnly<T extends object>(value: T | undefined): Partial<T> {
  const out: Partial<T> = {}
  if (!value) return out
  for (const key of Object.keys(value) as (keyof T)[]) if (value[key] !== undefined) out[key] = value[key]
  return out
}

function isConfigurable(store: FlowStore): store is ConfigurableFlowStore {
  return typeof (store as Partial<ConfigurableFlowStore>).configure === 'function'
}

/**
 * The resolved form of a config, computed on first use and cached for the life of the config object.
 * @throws AuthError subclasses naming the option at fault (MissingSecret, MissingAdapter, InvalidConfig, ...)
 */
export function resolveConfig(config: AuthConfig): ResolvedConfig {
  let result = resolved.get(config)
  if (!result) {
    result = build(config)
    resolved.set(config, result)
  }
  return result
}
