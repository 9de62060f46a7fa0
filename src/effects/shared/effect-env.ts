/**
 * What effect handlers may use: the resolved config's callbacks, events, logger and options, the request's clock and
 * base URL. No cookies, headers or responses: effects know no HTTP. Their results leave through the run: the
 * machine's output, or the run's scratch, which `runFlow` returns to the caller (docs/architecture.md).
 */
import type { CallbacksOptions, EventCallbacks, SessionOptions, Theme } from '../../types/index.js'
import type { LoggerInstance } from '../../types/logger.js'
import type { SessionTokenConfig } from '../../session/session-token.js'
import type { BackchannelLogoutOptions } from '../../types/logout-store.js'
import type { SessionStore } from '../../types/session-store.js'
import type { RefreshFailureAction, TokenRefreshLock } from '../../types/token-refresh.js'

/** A provider's `tokenRefresh` option with its defaults applied. */
export interface ResolvedTokenRefresh {
  /** Seconds an access token handed out must still be valid for. */
  margin: number
  onFailure: RefreshFailureAction
}

/**
 * The part of the resolved config that effects read. Effects never see the core's configuration type: the core's
 * `ResolvedConfig` satisfies this interface structurally, so an effect that needs more must say so here.
 */
export interface EffectConfig extends SessionTokenConfig {
  session: SessionOptions
  callbacks: CallbacksOptions
  events: Partial<EventCallbacks>
  logger: LoggerInstance
  /** Milliseconds an OAuth provider request may take. */
  providerTimeout: number
  /** Styling of the built-in pages and messages (the e-mail message follows it). */
  theme: Theme
  /** Back-channel logout: the store of revocations and session index, when configured. */
  backchannelLogout?: BackchannelLogoutOptions
  /** Session management: the store of session records and revocations, when configured. */
  sessionManagement?: { store: SessionStore }
  /**
   * The adapter keeps database sessions' records on their rows (it has `listSessionsByUser`); an Auth.js adapter
   * has not and is never handed the record's fields.
   */
  sessionRecordsOnRow?: boolean
  /** Providers whose tokens the session keeps and `getAccessToken` renews, by id (docs/token-refresh.md). */
  tokenRefresh?: ReadonlyMap<string, ResolvedTokenRefresh>
  /** Shares refreshes between instances (the Redis flow store offers one); without it, one process only. */
  refreshLock?: TokenRefreshLock
}

/** A sign-in or sign-out, for the audit trail (names and ids only). */
export interface SessionAuditEvent {
  type: 'sign-in' | 'sign-out'
  userId?: string
  provider?: string
  /** The provider's type (`oidc`, `oauth`, `email`, `credentials`, `webauthn`). */
  method?: string
}

export interface EffectEnv {
  config: EffectConfig
  /** The site's origin. */
  baseUrl: string
  /**
   * The origin something that leaves the request may be built from (a provider logout's return URL): the configured
   * one, or the request's when it is on `allowedOrigins`; undefined when the request's `Host` alone chose it.
   */
  outboundBaseUrl?: string
  /** Name of the session cookie: the key-derivation salt of the session token. */
  sessionCookieName: string
  /** Epoch seconds. */
  now: number
  /** The same instant in epoch milliseconds. */
  nowMs: number
  request: Request
  /** Who is asking, for a session's record: a short User-Agent summary and the client's address as the limits see it. */
  readonly device?: { userAgent?: string; clientAddress?: string }
  body?: Record<string, unknown>
  /** Records a sign-in or sign-out in the audit trail (a no-op without `config.audit`); never throws. */
  audit?(event: SessionAuditEvent): void
}
