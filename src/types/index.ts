/**
 * Public types of Authchart. They follow the shapes Auth.js (`@auth/core`) documents, so that an app written
 * against `@auth/core` type-checks after changing only the import specifier.
 * @module types
 */
import type { Adapter, AdapterSession, AdapterUser } from './adapters.js'
import type { JWT, JWTOptions } from './jwt.js'
import type { LoggerInstance } from './logger.js'
import type { Account, Awaitable, Profile, User } from './models.js'
import type { Theme } from './theme.js'
import type { CookiesOptions, CookieRecord } from './cookies.js'
import type { Provider, InternalProvider } from './providers.js'
import type { FlowStore } from './flow-store.js'
import type { BackchannelLogoutOptions } from './logout-store.js'
import type { SessionManagementOptions } from './session-store.js'
import type {
  FactorMessage,
  SecondFactorMessage,
  SecondFactorOptions,
  SecondFactorPolicy,
} from './factor-management.js'
import type { FlowExtensions, TransitionRecord } from './flow-extensions.js'
import type { AuditSink } from './audit.js'
import type { raw, skipCSRFCheck } from './symbols.js'

export type {
  Adapter,
  AdapterSession,
  AdapterUser,
  AdapterAccount,
  AdapterAuthenticator,
  AccountTokenFields,
  VerificationToken,
} from './adapters.js'
// From the public `authchart/jwt` module, not from ./jwt.js: this import puts that module into every app's program,
// which is what lets `declare module 'authchart/jwt' { interface JWT {...} }` reach the token type of the callbacks
// (TypeScript merges an augmentation only into a module some import loads).
export type { DefaultJWT, JWT, JWTOptions, JWTEncodeParams, JWTDecodeParams } from '../jwt.js'
export type { LoggerInstance, WarningCode } from './logger.js'
export type { Account, AuthorizationDetails, Awaitable, Profile, TokenSet, User } from './models.js'
export type { Theme } from './theme.js'
export type { RedirectableProviderType, SemverString } from './models.js'
export type {
  WebAuthnCreationOptionsJSON,
  WebAuthnCredentialDescriptorJSON,
  WebAuthnOptionsResponseBody,
  WebAuthnRequestOptionsJSON,
} from './webauthn-options.js'
export type {
  ErrorPageMessage,
  ErrorPageMessages,
  PageMessages,
  PageMessagesInput,
  SignInErrorMessages,
} from './page-messages.js'
export type { CookiesOptions, CookieOption, CookieRecord, CookieSerializeOptions } from './cookies.js'
export type * from './providers.js'
export type { FlowStore, FlowRecord } from './flow-store.js'
export type { BackchannelLogoutOptions, LogoutStore } from './logout-store.js'
export type { SessionManagementOptions, SessionRecord, SessionStore } from './session-store.js'
export type {
  FactorMessage,
  FactorSummary,
  SecondFactorKind,
  SecondFactorMessage,
  SecondFactorOptions,
  SecondFactorPolicy,
} from './factor-management.js'
export type { FlowExtensions, TransitionRecord } from './flow-extensions.js'
export type { AuditRecord, AuditRecordType, AuditSink } from './audit.js'
export type {
  AccessTokenError,
  AccessTokenResult,
  RefreshFailureAction,
  TokenRefreshLock,
  TokenRefreshOptions,
} from './token-refresh.js'

/** The nine actions served under the base path. */
export type AuthAction =
  | 'backchannel-logout'
  | 'callback'
  | 'csrf'
  | 'error'
  | 'providers'
  | 'session'
  | 'sessions'
  | 'factors'
  | 'second-factor'
  | 'signin'
  | 'signout'
  | 'verify-request'
  | 'webauthn-options'

/** The session handed to the client. */
export interface DefaultSession {
  user?: User
  expires: string
}
// An interface, not an alias, so that apps can add fields by module augmentation as Auth.js documents.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Session extends DefaultSession {}

/** Options of the session. */
export interface SessionOptions {
  /** `jwt` by default; `database` when an adapter is set. */
  strategy: 'jwt' | 'database'
  /** Seconds until an idle session expires. Default 30 days. */
  maxAge: number
  /** Seconds between session writes; `0` writes on every access. Default 1 day. */
  updateAge: number
  /** Database sessions: how the random session token is made. */
  generateSessionToken: () => string
}

/** Parameters of the `signIn` callback. */
export interface SignInCallbackParams {
  user: User | AdapterUser
  account: Account | null
  profile?: Profile
  email?: { verificationRequest?: boolean }
  credentials?: Record<string, unknown>
}

/** Parameters of the `jwt` callback. */
export interface JwtCallbackParams {
  token: JWT
  user: User | AdapterUser
  account: Account | null
  profile?: Profile
  trigger?: 'signIn' | 'signUp' | 'update'
  /** @deprecated use `trigger === "signUp"` */
  isNewUser?: boolean
  /**
   * With `trigger === 'update'`: the data the client sent to `update()` (`POST /session`). Typed `any`, as Auth.js
   * types it, so `session?.nickname` compiles; it is the client's JSON, so check it before you trust it.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Auth.js's type: apps read fields off it directly
  session?: any
}

/**
 * Parameters of the `session` callback, typed as Auth.js types them. The strategy decides what is set: JWT sessions
 * get `session` (built from the token) and `token`; database sessions get `session` as the row (`sessionToken`,
 * `userId`, `expires` as the row's `Date`) with its `user`, and `user`.
 */
export interface SessionCallbackParams {
  session: Omit<Session, 'expires'> & {
    user: AdapterUser | User
    expires: string | Date
    sessionToken?: string
    userId?: string
  }
  token: JWT
  user: AdapterUser
  /** With `trigger === 'update'`: the client's data, typed `any` as in Auth.js (check it before you trust it). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Auth.js's type: apps read fields off it directly
  newSession?: any
  trigger?: 'update'
}

/** App hooks that shape sign-in, redirects, tokens and sessions. */
export interface CallbacksOptions {
  signIn: (params: SignInCallbackParams) => Awaitable<boolean | string>
  redirect: (params: { url: string; baseUrl: string }) => Awaitable<string>
  session: (params: SessionCallbackParams) => Awaitable<Session | DefaultSession | Record<string, unknown>>
  jwt: (params: JwtCallbackParams) => Awaitable<JWT | null>
}

/** Audit events; their results are ignored and their errors logged. */
export interface EventCallbacks {
  signIn: (message: { user: User; account: Account | null; profile?: Profile; isNewUser?: boolean }) => Awaitable<void>
  signOut: (message: { session: AdapterSession | null | undefined } | { token: JWT | null }) => Awaitable<void>
  createUser: (message: { user: User }) => Awaitable<void>
  updateUser: (message: { user: User }) => Awaitable<void>
  linkAccount: (message: { user: User | AdapterUser; account: Account; profile: User | AdapterUser }) => Awaitable<void>
  session: (message: { session: Session; token: JWT } | { session: Session; user?: AdapterUser }) => Awaitable<void>
  /**
   * Authchart extension (Auth.js has no such event): a credentials account or client was locked out after too many
   * failed sign-ins. `account` is the submitted identifier as normalised, whether or not such a user exists.
   */
  credentialsLockout: (message: CredentialsLockoutMessage) => Awaitable<void>
  /**
   * Authchart extension: sessions were ended before they expired (session management), by their user from another
   * device (`by: "user"`) or by the app (`revokeUserSessions`, `by: "app"`). `sessionIds` are the ids listed by
   * `listSessions`; empty when every session of the user signed in before now was ended.
   */
  sessionRevoked: (message: { userId: string; sessionIds: string[]; by: 'user' | 'app' }) => Awaitable<void>
  /**
   * Authchart extension: the user enrolled a second factor on the factors page or endpoint (a TOTP authenticator,
   * confirmed with its first code, or a set of recovery codes). Never carries a secret or a code.
   */
  factorEnrolled: (message: FactorMessage) => Awaitable<void>
  /** Authchart extension: a second factor of the user was removed (by the user, or replaced recovery codes). */
  factorRemoved: (message: FactorMessage) => Awaitable<void>
  /** Authchart extension: an answer to a sign-in's second-factor challenge, right (`success`) or wrong. No code. */
  secondFactor: (message: SecondFactorMessage) => Awaitable<void>
}

/** What the `credentialsLockout` event says. */
export interface CredentialsLockoutMessage {
  provider: string
  /**
   * Which limit was reached: the account's, the client's, or both; `device` when a browser known from an earlier
   * good sign-in to the account spent its own budget (the account stays open to its other devices).
   */
  scope: 'account' | 'device' | 'client' | 'both'
  /** The normalised account identifier, when the account limit was reached. */
  account?: string
  /** When the lockout ends. */
  until: Date
}

/** Paths of the app's own pages that replace the built-in ones. */
export interface PagesOptions {
  signIn: string
  signOut: string
  error: string
  verifyRequest: string
  newUser: string
}

/** The internal response, returned as-is when `config.raw` is the exported `raw` marker. */
export interface ResponseInternal<Body = unknown> {
  status?: number
  headers?: ConstructorParameters<typeof Headers>[0]
  body?: Body
  redirect?: string
  cookies?: CookieRecord[]
}

/** The configuration of `Auth()`. */
export interface AuthConfig {
  /** The sign-in methods offered; `[]` when left out (the spec's default). */
  providers?: Provider[]
  adapter?: Adapter
  basePath?: string
  secret?: string | string[]
  session?: Partial<SessionOptions>
  jwt?: Partial<JWTOptions>
  callbacks?: Partial<CallbacksOptions>
  events?: Partial<EventCallbacks>
  /**
   * Authchart extension: the second-factor challenge at sign-in (docs/second-factors.md). A user with an enrolled
   * factor is always challenged; a policy (`'optional'`, `'required'` or a function of the user and account) says
   * who must enrol one first. Options in an object: the policy, whether a verified passkey counts as two factors,
   * the challenge's lifetime and the per-account attempt limit.
   */
  secondFactor?: SecondFactorPolicy<User, Account> | SecondFactorOptions<User, Account>
  pages?: Partial<PagesOptions>
  cookies?: Partial<CookiesOptions>
  theme?: Theme
  logger?: Partial<LoggerInstance>
  debug?: boolean
  trustHost?: boolean
  /**
   * Authchart: who stands between the client and the app, for the request limits' client key: the number of proxies
   * (as Express's `trust proxy` number) or their addresses, CIDR ranges and the names `loopback`, `linklocal`,
   * `uniquelocal` (as Express's `trust proxy` list). Without it the client is the socket's peer address and
   * `X-Forwarded-For` is never read; `trustHost` does not change that (docs/security.md).
   */
  trustedProxies?: number | readonly string[]
  useSecureCookies?: boolean
  redirectProxyUrl?: string
  /**
   * Authchart: the app's public URL. Its origin is used for every URL Authchart builds (redirect_uri, callback,
   * page and e-mail links); request headers are then never consulted. Default: `AUTH_URL`.
   */
  url?: string
  /**
   * Authchart: origins a redirect proxy may forward a provider's callback to, and for which a deployment without a
   * configured `url` may start a proxied sign-in: exact origins or `https://*.example.com` patterns.
   * Default: `AUTH_REDIRECT_PROXY_ALLOWED_ORIGINS` (comma-separated). Without it, the proxy forwards nowhere.
   */
  redirectProxyAllowedOrigins?: string[]
  /**
   * Authchart: the origins this deployment may be reached at when no `url` is configured (with `trustHost`): only a
   * request arriving at one of them may have something built from its origin that leaves the request (the mailed
   * e-mail sign-in link, the `post_logout_redirect_uri` of a provider logout). Exact origins or
   * `https://*.example.com` patterns. Default: `AUTH_ALLOWED_ORIGINS` (comma-separated). Ignored when `url` is set.
   */
  allowedOrigins?: string[]
  experimental?: { enableWebAuthn?: boolean }
  /** For framework authors: skips the built-in CSRF check. */
  skipCSRFCheck?: typeof skipCSRFCheck
  /** For framework authors: `Auth()` returns the internal response. */
  raw?: typeof raw
  /** Authchart: where in-flight flows are kept between requests. Default: one encrypted cookie. */
  flowStore?: FlowStore
  /**
   * Authchart: enables `POST <basePath>/backchannel-logout/<provider>` (OpenID Connect Back-Channel Logout) and the
   * revocation check on JWT session reads. Without it, no revocation list is looked up. See docs/logout.md.
   */
  backchannelLogout?: BackchannelLogoutOptions
  /**
   * Authchart: session management: every session gets an id and a record its user can see (`listSessions`, the
   * `/sessions` page), and any session can be ended at once on every instance, JWT sessions included. See
   * docs/sessions.md.
   */
  sessionManagement?: SessionManagementOptions
  /** Authchart: replace or add guards at the machines' documented extension points. */
  flows?: FlowExtensions
  /** Authchart: called for every machine transition, with no secrets in the record. */
  onTransition?: (record: TransitionRecord) => void
  /**
   * Authchart: the audit trail: one record per finished flow and per sign-in, sign-out, refusal, factor change and
   * revoked sessions (docs/observability.md). Ready sinks: `jsonLinesAuditSink` (`authchart/audit`) and
   * `sqlAuditSink` (`authchart/adapters/sql`).
   */
  audit?: AuditSink
  /** Authchart: milliseconds before a call to a provider endpoint is abandoned. Default 5000. */
  providerTimeout?: number
  /**
   * Authchart: milliseconds a request body (a sign-in form, a session update) may take to arrive; past it the request
   * is answered 408 and its connection closed. Default 10000.
   */
  bodyTimeout?: number
  /**
   * Authchart: milliseconds an adapter call may take; past it the request is answered 503 (the store is treated as
   * unreachable) instead of waiting for as long as the database stalls. Default 5000.
   */
  adapterTimeout?: number
}

/** Re-exported for providers that need the resolved provider shape. */
export type { InternalProvider }
