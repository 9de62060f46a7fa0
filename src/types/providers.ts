/** Provider configuration types, shaped as Auth.js documents them. */
import type { Account, Awaitable, Profile, ProviderType, TokenSet, User } from './models.js'
import type { customFetch, FetchFunction } from './symbols.js'
import type { Adapter } from './adapters.js'
import type { Theme } from './theme.js'
import type { TokenRefreshOptions } from './token-refresh.js'

export type { ProviderType } from './models.js'

/** Fields common to all providers. */
export interface CommonProviderOptions {
  id: string
  name: string
  type: ProviderType
}

/** The label and colours of a provider's button on the built-in sign-in page. */
export interface ProviderStyle {
  logo?: string
  brandColor?: string
  /** @deprecated use `brandColor` */
  bg?: string
  /** @deprecated use `brandColor` */
  text?: string
}

/** An endpoint given as a URL, or as a URL with extra query parameters. */
export type EndpointHandler<P extends Record<string, unknown> = Record<string, unknown>> =
  | string
  | {
      url?: string
      params?: P
      /** Plain OAuth 2 providers with non-standard endpoints: fetch the data yourself. */
      request?: (context: { tokens: TokenSet; provider: OAuthConfigInternal<Profile> }) => Awaitable<unknown>
      /** Token endpoints that answer in a non-standard way (e.g. an error with status 200). */
      conform?: (response: Response) => Awaitable<Response | undefined>
    }

export type ChecksType = 'pkce' | 'state' | 'none' | 'nonce'

/** An OAuth 2 provider (`type: "oauth"`) or, with `type: "oidc"`, an OpenID Connect provider. */
export interface OAuth2Config<P = Profile> extends CommonProviderOptions {
  type: 'oauth'
  id: string
  name: string
  clientId?: string
  clientSecret?: string
  issuer?: string
  wellKnown?: string
  authorization?: EndpointHandler<Record<string, string>>
  token?: EndpointHandler
  userinfo?: EndpointHandler
  jwks_endpoint?: string
  checks?: ChecksType[]
  profile?: (profile: P, tokens: TokenSet) => Awaitable<User>
  account?: (tokens: TokenSet) => TokenSet | undefined | void
  allowDangerousEmailAccountLinking?: boolean
  client?: { token_endpoint_auth_method?: string; id_token_signed_response_alg?: string; [key: string]: unknown }
  style?: ProviderStyle
  redirectProxyUrl?: string
  /**
   * Authchart: how the authorization code is exchanged for tokens. `"authorization_code"` (the default) is RFC 6749's
   * code grant. `"jwt-bearer-assertion"` is Azure DevOps's variant: the browser is sent with `response_type=Assertion`,
   * and the code goes back as the `assertion` of a JWT-bearer grant, with the client secret as `client_assertion`.
   * The response type is not taken from `authorization.params`, so no parameter can switch a sign-in to another flow.
   */
  codeGrant?: 'authorization_code' | 'jwt-bearer-assertion'
  /**
   * Authchart: keep this provider's access and refresh tokens with the session and renew the access token on
   * demand through `getAccessToken` (docs/token-refresh.md). Off by default.
   */
  tokenRefresh?: boolean | TokenRefreshOptions
  /** Plain OAuth 2 only: the response has `iss` (RFC 9207) even without discovery. */
  options?: Partial<OAuthUserConfig<P>>
  [customFetch]?: FetchFunction
}

export interface OIDCConfig<P = Profile> extends Omit<OAuth2Config<P>, 'type' | 'checks' | 'options'> {
  type: 'oidc'
  checks?: ChecksType[]
  /** When `false`, user data comes from the userinfo endpoint (an `id_token` is still required). */
  idToken?: boolean
  /**
   * Authchart: signing out also ends the session at this provider (OpenID Connect RP-Initiated Logout): the browser
   * goes to the provider's `end_session_endpoint` with `id_token_hint`, and comes back to the sign-out's callback URL
   * (register it at the provider as a post-logout redirect URI). The ID token is kept with the session for this.
   */
  endSessionAtProvider?: boolean
  /**
   * Authchart: this provider may end sessions through `POST <basePath>/backchannel-logout/<id>` (OpenID Connect
   * Back-Channel Logout). Needs `backchannelLogout` in the config.
   */
  backchannelLogout?: boolean
  options?: Partial<OIDCUserConfig<P>>
}

export type OAuthConfig<P = Profile> = OAuth2Config<P> | OIDCConfig<P>

/** What a user passes to a vendor provider factory such as `GitHub({ clientId, clientSecret })`. */
export type OAuthUserConfig<P = Profile> = Omit<Partial<OAuth2Config<P>>, 'options' | 'type'>
export type OIDCUserConfig<P = Profile> = Omit<Partial<OIDCConfig<P>>, 'options' | 'type'>

/** The resolved, merged form the runtime uses. */
export type OAuthConfigInternal<P = Profile> = (OAuth2Config<P> | OIDCConfig<P>) & {
  signinUrl: string
  callbackUrl: string
  redirectProxyUrl?: string
  checks: ChecksType[]
}

/** A field of the built-in credentials form. */
export interface CredentialInput {
  label?: string
  type?: string
  value?: string
  placeholder?: string
  [attribute: string]: unknown
}

/** A credentials provider: the app verifies the submitted fields in `authorize`. */
export interface CredentialsConfig<
  C extends Record<string, CredentialInput> = Record<string, CredentialInput>,
> extends CommonProviderOptions {
  type: 'credentials'
  credentials: C
  /**
   * Returns the user on success, `null` to reject (`CredentialsSignin`), or throws `CredentialsSignin` with a `code`.
   */
  authorize: (credentials: Partial<Record<keyof C, unknown>>, request: Request) => Awaitable<User | null>
  /**
   * Authchart: limits on failed sign-ins per account and per client, then a lockout (docs/security.md). On by
   * default; `false` turns them off (only when something in front of the app already limits password guessing).
   */
  bruteForce?: CredentialsFailureLimits | false
  options?: Partial<CredentialsConfig<C>>
}

/** A {@link RequestCounter} that can also be read without counting, and cleared. */
export interface FailureCounter extends RequestCounter {
  /**
   * The hits in `key`'s current window and the seconds until it ends; `{ count: 0, secondsLeft: 0 }` when none. A
   * store that knows at once (memory) may answer without a promise: the sign-in then waits for nothing.
   */
  peek(key: string, nowSeconds: number): Awaitable<{ count: number; secondsLeft: number }>
  /** Forgets `key`'s window; without a promise when it is done at once. */
  clear(key: string): Awaitable<void>
  /**
   * Counts one attempt on `attemptKey` unless `lockoutKey` holds a running lockout, in ONE atomic step: the answer is
   * the lockout's seconds left (0 for none) and the attempts in the window, this one included (not counted while
   * locked). Optional for an app's own store; without it the sign-in peeks the lockout, then `hit`s the attempt (each
   * still atomic on its own, so parallel guesses still cost one each). Both keys share a Redis Cluster hash slot.
   */
  reserve?(
    lockoutKey: string,
    attemptKey: string,
    windowSeconds: number,
    nowSeconds: number,
  ): Awaitable<{ lockedSeconds: number; attempts: number }>
  /** Gives back one attempt counted on `key` (a sign-in that succeeded). Optional: without it a success stays counted. */
  release?(key: string): Awaitable<void>
  /**
   * Starts a lockout on `key` for `seconds`. Optional: without it the sign-in `hit`s the key. The memory counter keeps
   * lockouts apart from counts, so a flood of new counts never evicts a running lockout.
   */
  lock?(key: string, seconds: number, nowSeconds: number): Awaitable<void>
}

/** How failed credentials sign-ins are limited. */
export interface CredentialsFailureLimits {
  /** Failed sign-ins for one account (the submitted username or e-mail) before it is locked out. Default 5. */
  maxFailures?: number
  /** Failed sign-ins from one client, over every account, before it is locked out. Default 50. */
  maxClientFailures?: number
  /** The window failures are counted in, in seconds. Default 900 (15 minutes). */
  windowSeconds?: number
  /** How long a lockout lasts, in seconds. Default 900 (15 minutes). */
  lockoutSeconds?: number
  /** Where failures and lockouts are kept. Default: this process's memory (one instance only; use Redis for several). */
  store?: FailureCounter
  /**
   * Who the client is, from the request. Default: the socket's peer address, or behind the config's `trustedProxies`
   * the `X-Forwarded-For` hop the outermost trusted proxy saw, an IPv6 client by its /64; unknown (only the
   * per-account limit applies) when the host gave no peer address (docs/security.md).
   */
  clientKey?: (request: Request) => string | undefined
  /**
   * The account a submission is for. Default: the `username` field, else `email`, else the first declared field
   * that is not a password; trimmed, NFKC-normalised and lower-cased.
   */
  accountKey?: (credentials: Record<string, unknown>) => string | undefined
}

/** Counts hits per key in fixed windows. */
export interface RequestCounter {
  /** Records one hit on `key` and answers the hits in its current window, this one included. */
  hit(key: string, windowSeconds: number, nowSeconds: number): Promise<number>
}

/** How e-mail sign-in requests are limited. */
export interface EmailRequestLimits {
  /**
   * Requests for one address from one client in a window. Default 5. Counted only once the client is within
   * `perClient`, so a stranger's requests for someone's address spend the stranger's budget, not the owner's.
   */
  perAddress?: number
  /**
   * Requests for one address from every client in a window: the most links one inbox can receive. Default 20. An
   * address's `+tag` is dropped for these counts (`ada+1@x` and `ada+2@x` are one inbox); the mail still goes to it.
   */
  perAddressAllClients?: number
  /** Requests one client may make in a window. Default 20 (only counted when the client is known). */
  perClient?: number
  /** The window, in seconds. Default 900 (15 minutes). */
  windowSeconds?: number
  /** Where hits are counted. Default: in this process's memory (one instance only; use Redis for several). */
  store?: RequestCounter
  /**
   * Who the client is, from the request. Default: the socket's peer address, or behind the config's `trustedProxies`
   * the `X-Forwarded-For` hop the outermost trusted proxy saw, an IPv6 client by its /64; unknown (only the
   * per-address limit applies) when the host gave no peer address (docs/security.md).
   */
  clientKey?: (request: Request) => string | undefined
}

/** An e-mail (magic link) provider. */
export interface EmailConfig extends CommonProviderOptions {
  type: 'email'
  /** Seconds a sign-in link stays valid. Default 24 hours. */
  maxAge?: number
  from?: string
  server?: unknown
  sendVerificationRequest: (params: {
    identifier: string
    url: string
    expires: Date
    provider: EmailConfig
    token: string
    theme: Theme
    request: Request
  }) => Awaitable<void>
  generateVerificationToken?: () => Awaitable<string>
  normalizeIdentifier?: (identifier: string) => string
  secret?: string
  /** HTTP-API vendors: the API key (default: the `AUTH_<ID>_KEY` environment variable, as in Auth.js). */
  apiKey?: string
  /** Authchart, HTTP-API vendors: the API's base URL (a regional endpoint, or a stand-in server in tests). */
  apiUrl?: string
  /** Loops: the transactional e-mail template that carries the link. */
  transactionalId?: string
  /** Mailgun: `US` (default) or `EU`. */
  region?: 'US' | 'EU'
  /** Authchart: limits on sign-in requests per address and per client (docs/email.md). */
  rateLimit?: EmailRequestLimits
  /**
   * Authchart: consume the token on the GET of the link, as Auth.js does, instead of showing a one-click
   * confirmation page. Mail security scanners that fetch links then burn the user's link before the user clicks it.
   */
  dangerousConsumeOnGet?: boolean
  options?: Partial<EmailConfig>
}

/** The relying party a passkey belongs to: its display name, its id (a registrable domain) and the origins it answers on. */
export interface RelyingParty {
  name: string
  id: string
  origin: string | string[]
}

/** A form field the sign-in page shows above the passkey button (usually `email`). */
export interface WebAuthnFormField {
  label?: string
  required?: boolean
  autocomplete?: string
  [attribute: string]: unknown
}

/** Who is asking for passkey options: a known user (authenticate with their passkeys) or a new one (register). */
export interface WebAuthnUserInfo {
  user: { id?: string; email: string; name?: string | null; image?: string | null }
  exists: boolean
}

/** A WebAuthn (passkey) provider; experimental. Option names follow Auth.js (including its `relayingParty` spelling). */
export interface WebAuthnConfig extends CommonProviderOptions {
  type: 'webauthn'
  /** Fixed relying party; any field left out is derived from the request's origin (`ctx.origin`). */
  relayingParty?: Partial<RelyingParty>
  /** Derives the relying party per request; wins over `relayingParty`. */
  getRelayingParty?: (options: { origin: string; provider: WebAuthnConfig }, request: Request) => RelyingParty
  /** Merged into the options the browser gets for `navigator.credentials.create()`. */
  registrationOptions?: Record<string, unknown>
  /** Merged into the options the browser gets for `navigator.credentials.get()`. */
  authenticationOptions?: Record<string, unknown>
  /** Extra settings for verifying a registration response (for example `requireUserVerification`). */
  verifyRegistrationOptions?: { requireUserVerification?: boolean; supportedAlgorithmIDs?: number[] }
  /** Extra settings for verifying an authentication response. */
  verifyAuthenticationOptions?: { requireUserVerification?: boolean }
  /** Whether the sign-in page offers passkeys in the browser's autofill (conditional mediation). */
  enableConditionalUI?: boolean
  /** The fields the sign-in page asks for; the first one with `webauthn` in its autocomplete carries autofill. */
  formFields?: Record<string, WebAuthnFormField>
  /**
   * Finds who the options request is about from its query (`email` by default): a stored user, a new user, or
   * `null` when the request names nobody (then only discoverable credentials can answer).
   */
  getUserInfo?: (
    options: { adapter: Adapter; provider: WebAuthnConfig },
    request: Request,
  ) => Awaitable<WebAuthnUserInfo | null>
  options?: Partial<WebAuthnConfig>
  [key: string]: unknown
}

export type ProviderConfig = OAuthConfig | CredentialsConfig | EmailConfig | WebAuthnConfig

/**
 * A provider: a configuration object, or a factory called with no arguments (`providers: [GitHub]`).
 * The default `P = never` accepts providers of every profile type (`profile` only takes P as a parameter), so
 * `providers: [GitHub(), Google()]` type-checks as it does with Auth.js (whose default is `any`).
 */
export type Provider<P = never> =
  | ((OAuthConfig<P> | CredentialsConfig | EmailConfig | WebAuthnConfig) & { options?: unknown })
  | ((...args: never[]) => OAuthConfig<P> | CredentialsConfig | EmailConfig | WebAuthnConfig)

/** The client-safe form `GET /providers` answers with. */
export interface PublicProvider {
  id: string
  name: string
  type: string
  signinUrl: string
  callbackUrl: string
}

/** A provider after defaults, user options and URLs have been merged. */
export type InternalProvider =
  | OAuthConfigInternal
  | (CredentialsConfig & { signinUrl: string; callbackUrl: string })
  | (EmailConfig & { signinUrl: string; callbackUrl: string })
  | (WebAuthnConfig & { signinUrl: string; callbackUrl: string })

export type { Account }
