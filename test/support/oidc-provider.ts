/**
 * A real OpenID Provider (the `oidc-provider` package) on a random loopback port, for tests that need the genuine
 * article rather than a fake: discovery, JWKS, PKCE, client authentication, form_post, userinfo, single-use codes.
 * `signInAs` completes the login and consent steps with plain fetch (cookies carried by hand, redirects followed by
 * hand), so no browser is needed; it stops at the redirect back to the client and returns the callback parameters.
 *
 * ```ts
 * const op = await startOidcProvider({ clients: [{ client_id: 'app', client_secret: 's', redirect_uris: [cb] }] })
 * const result = await op.signInAs(authorizationUrl, 'alice')   // → { mode: 'query' | 'form_post', params }
 * await op.close()
 * ```
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { randomBytes } from 'node:crypto'
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK, type JWTPayload } from 'jose'
import { scalarText } from '../../src/security/scalar-text.js'

/** Client metadata as oidc-provider takes it (RFC 7591 names). */
export interface OidcClientMetadata {
  client_id: string
  client_secret?: string
  redirect_uris: string[]
  token_endpoint_auth_method?: 'client_secret_basic' | 'client_secret_post' | 'client_secret_jwt' | 'none'
  id_token_signed_response_alg?: string
  [key: string]: unknown
}

/** Options of `startOidcProvider`. */
export interface OidcProviderOptions {
  clients: OidcClientMetadata[]
  /** Claims per account id; `sub` is the account id. Default: `alice` and `bob` with name and e-mail. */
  accounts?: Record<string, Record<string, unknown>>
  /**
   * oidc-provider's `conformIdTokenClaims`. Default `false` here (scope claims go into the ID token as well);
   * `true` keeps the ID token to `sub` and friends, so profile data can only come from userinfo.
   */
  conformIdTokenClaims?: boolean
  /** Extra oidc-provider `features` (e.g. `rpInitiatedLogout`, `backchannelLogout`), merged over the defaults. */
  features?: Record<string, unknown>
  /**
   * Refresh tokens, for token refresh tests: issued to clients allowed the `refresh_token` grant that asked for
   * `offline_access` with `prompt=consent` (oidc-provider's own rule), rotated on every use when `rotate` is set
   * (a rotated token used again revokes the whole grant, as oidc-provider does), and the revocation endpoint on.
   */
  refreshTokens?: { rotate: boolean }
  /** Seconds an access token lives. Default 600. When set, expired tokens are refused at once (no clock tolerance). */
  accessTokenTtl?: number
}

/** Where `signInAs` stopped: the redirect to the client (query) or the auto-submitting form (form_post). */
export type AuthorizationResult =
  | { mode: 'query'; callbackUrl: URL; params: URLSearchParams }
  | { mode: 'form_post'; action: string; params: URLSearchParams }

/**
 * One user agent at the provider, keeping its cookies (and so its OP session) from one call to the next: for tests
 * of what the OP remembers between authorizations, and of logging out there.
 */
export interface OpBrowser {
  /** Like `signInAs`, in this browser. */
  signInAs(authorizationUrl: string | URL, accountId: string): Promise<AuthorizationResult>
  /**
   * Follows an authorization URL without logging in: the OP either answers at once (a live OP session) or shows its
   * login page (`prompt` is the interaction's prompt name, `login` when it asks who the user is).
   */
  authorize(authorizationUrl: string | URL): Promise<{ prompt: string } | { callbackUrl: URL }>
  /** Follows an `end_session_endpoint` URL, confirms "sign me out", and returns where the OP sends the browser. */
  endSession(logoutUrl: string | URL): Promise<URL>
}

/** A running provider. */
export interface RunningOidcProvider {
  issuer: string
  /** Drives login and consent for `accountId` and returns the authorization response meant for the client. */
  signInAs(authorizationUrl: string | URL, accountId: string): Promise<AuthorizationResult>
  /** A browser with its own cookie jar, kept across calls. */
  browser(): OpBrowser
  /**
   * Signs a JWT with the OP's own signing key (the one its JWKS publishes), for tokens the OP would sign but a test
   * needs with chosen claims: a logout token for a session, or one with a claim the spec forbids.
   */
  signJwt(payload: JWTPayload, typ?: string): Promise<string>
  /** Token endpoint requests answered so far, by grant type (`refresh_token`, `authorization_code`), failed ones too. */
  tokenRequests(grantType: string): number
  /** Revokes a token at the revocation endpoint (RFC 7009), as the client; a refresh token takes its grant with it. */
  revoke(token: string, client: { id: string; secret: string }): Promise<void>
  close(): Promise<void>
}

interface OidcGrant {
  addOIDCScope(scope: string): void
  addOIDCClaims(claims: string[]): void
  save(): Promise<string>
}
interface OidcInteraction {
  params: Record<string, unknown>
  prompt?: { name?: string }
  session?: { accountId?: string }
}
interface OidcProviderInstance {
  callback(): (req: IncomingMessage, res: ServerResponse) => void
  interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<OidcInteraction>
  interactionFinished(
    req: IncomingMessage,
    res: ServerResponse,
    result: Record<string, unknown>,
    options?: { mergeWithLastSubmission?: boolean },
  ): Promise<void>
  Grant: new (init: { accountId: string; clientId: string }) => OidcGrant
  on(event: 'grant.success', listener: (ctx: OidcContext) => void): void
  on(event: 'grant.error', listener: (ctx: OidcContext, error: unknown) => void): void
}
interface OidcContext {
  oidc?: { params?: { grant_type?: unknown } }
}
type OidcProviderConstructor = new (issuer: string, configuration: Record<string, unknown>) => OidcProviderInstance

const defaultAccounts: Record<string, Record<string, unknown>> = {
  alice: {
    name: 'Alice Liddell',
    email: 'Alice@Example.test',
    email_verified: true,
    picture: 'https://example.test/alice.png',
  },
  bob: { name: 'Bob Builder', email: 'bob@example.test', email_verified: false },
}

// oidc-provider ships no type declarations; a computed specifier keeps the import typed as `unknown` until the
// small interface above is applied to it.
async function loadProviderClass(): Promise<OidcProviderConstructor> {
  const specifier: string = 'oidc-provider'
  const loaded: unknown = await import(specifier)
  return (loaded as { default: OidcProviderConstructor }).default
}

async function signingKeys() {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true })
  return { keys: [{ ...(await exportJWK(privateKey)), kid: 'op-rs256', alg: 'RS256', use: 'sig' }] }
}

function readBody(req: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    let text = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => (text += chunk))
    req.on('end', () => resolve(new URLSearchParams(text)))
    req.on('error', reject)
  })
}

/** Plays the login and consent pages: whoever posts `login=<accountId>` is that account and consents to everything. */
async function finishInteraction(
  provider: OidcProviderInstance,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const details = await provider.interactionDetails(req, res)
  const body = req.method === 'POST' ? await readBody(req) : new URLSearchParams()
  const accountId = body.get('login') ?? details.session?.accountId
  if (!accountId) {
    const prompt = scalarText(details.prompt?.name ?? 'login').replace(/[^a-z_]/g, '')
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end(`<form method="post" data-prompt="${prompt}"><input name="login"></form>`)
    return
  }
  const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) })
  grant.addOIDCScope(scalarText(details.params.scope ?? 'openid'))
  const result = { login: { accountId }, consent: { grantId: await grant.save() } }
  await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false })
}

function decodeHtml(value: string): string {
  return value
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCharCode(Number(dec)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
}

/** Reads oidc-provider's auto-submitting form_post page: the form's action and its hidden inputs. */
function parseFormPost(html: string): { action: string; params: URLSearchParams } | undefined {
  const action = /<form[^>]*action="([^"]+)"/i.exec(html)?.[1]
  if (!action) return undefined
  const params = new URLSearchParams()
  for (const match of html.matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/gi))
    params.append(decodeHtml(match[1] ?? ''), decodeHtml(match[2] ?? ''))
  return { action: decodeHtml(action), params }
}

class CookieJar {
  private readonly cookies = new Map<string, string>()
  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';')
      const eq = pair.indexOf('=')
      const name = pair.slice(0, eq).trim()
      const value = pair.slice(eq + 1).trim()
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
  }
}

async function driveSignIn(
  issuer: string,
  authorizationUrl: string | URL,
  accountId: string,
  jar = new CookieJar(),
): Promise<AuthorizationResult> {
  const origin = new URL(issuer).origin
  let response = await fetch(authorizationUrl, { redirect: 'manual', headers: { cookie: jar.header() } })
  for (let hop = 0; hop < 12; hop++) {
    jar.store(response)
    const location = response.headers.get('location')
    if (location && response.status >= 300 && response.status < 400) {
      const next = new URL(location, issuer)
      if (next.origin !== origin) return { mode: 'query', callbackUrl: next, params: next.searchParams }
      response = next.pathname.startsWith('/interaction/')
        ? await fetch(next, {
            method: 'POST',
            redirect: 'manual',
            headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ login: accountId }),
          })
        : await fetch(next, { redirect: 'manual', headers: { cookie: jar.header() } })
      continue
    }
    const text = await response.text()
    const form = response.status === 200 ? parseFormPost(text) : undefined
    if (form) return { mode: 'form_post', ...form }
    throw new Error(`oidc-provider answered ${response.status} instead of redirecting: ${text.slice(0, 300)}`)
  }
  throw new Error('oidc-provider kept redirecting')
}

/** Follows redirects inside the OP without logging in: where the OP ends up (its login page, or back at the client). */
async function followAuthorization(
  issuer: string,
  authorizationUrl: string | URL,
  jar: CookieJar,
): Promise<{ prompt: string } | { callbackUrl: URL }> {
  let url = new URL(authorizationUrl)
  for (let hop = 0; hop < 12; hop++) {
    const response = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header() } })
    jar.store(response)
    const location = response.headers.get('location')
    if (location && response.status >= 300 && response.status < 400) {
      url = new URL(location, issuer)
      if (url.origin !== new URL(issuer).origin) return { callbackUrl: url }
      continue
    }
    const text = await response.text()
    const prompt = /data-prompt="([a-z_]+)"/.exec(text)?.[1]
    if (prompt) return { prompt }
    throw new Error(`oidc-provider answered ${response.status} without a login page: ${text.slice(0, 300)}`)
  }
  throw new Error('oidc-provider kept redirecting')
}

/** Plays the OP's logout confirmation page: posts its form with `logout=yes`, returns the redirect it answers. */
async function confirmEndSession(issuer: string, logoutUrl: string | URL, jar: CookieJar): Promise<URL> {
  const page = await fetch(logoutUrl, { redirect: 'manual', headers: { cookie: jar.header() } })
  jar.store(page)
  const html = await page.text()
  const action = /<form[^>]*id="op.logoutForm"[^>]*action="([^"]+)"/i.exec(html)?.[1]
  const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1]
  if (!action || !xsrf) throw new Error(`oidc-provider showed no logout form (${page.status}): ${html.slice(0, 300)}`)
  const confirmed = await fetch(new URL(decodeHtml(action), issuer), {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ xsrf: decodeHtml(xsrf), logout: 'yes' }),
  })
  jar.store(confirmed)
  const location = confirmed.headers.get('location')
  if (!location) throw new Error(`oidc-provider did not redirect after logout: ${confirmed.status}`)
  return new URL(location, issuer)
}

/** Starts oidc-provider on 127.0.0.1 with a random port. */
export async function startOidcProvider(options: OidcProviderOptions): Promise<RunningOidcProvider> {
  const Provider = await loadProviderClass()
  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.writeHead(503).end()
  const server = createServer((req, res) => handle(req, res))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const accounts = options.accounts ?? defaultAccounts
  const jwks = await signingKeys()
  const signingKey = await importJWK(jwks.keys[0] as JWK, 'RS256')
  const provider = new Provider(issuer, {
    clients: options.clients,
    jwks,
    cookies: { keys: [randomBytes(32).toString('hex')] },
    conformIdTokenClaims: options.conformIdTokenClaims ?? false,
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name', 'picture', 'preferred_username'],
    },
    features: {
      devInteractions: { enabled: false },
      revocation: {
        enabled: options.refreshTokens !== undefined,
        // A client may revoke its own tokens only.
        allowedPolicy: (_ctx: unknown, client: { clientId: string }, token: { clientId?: string }) =>
          token.clientId === client.clientId,
      },
      ...options.features,
    },
    ...(options.refreshTokens ? { rotateRefreshToken: options.refreshTokens.rotate } : {}),
    ...(options.accessTokenTtl !== undefined ? { clockTolerance: 0 } : {}),
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx: unknown, sub: string) => {
      const claims = accounts[sub]
      return claims ? { accountId: sub, claims: () => ({ sub, ...claims }) } : undefined
    },
    clientBasedCORS: () => false,
    // The OP's outgoing requests (back-channel logout tokens) go to sites on loopback, which its SSRF guard (a
    // dispatcher refusing special-use addresses) would refuse: here every party is on 127.0.0.1 on purpose.
    fetch: (url: string | URL, init: RequestInit & { dispatcher?: unknown }) => {
      const { dispatcher: _guard, ...rest } = init
      return globalThis.fetch(url, rest)
    },
    ttl: {
      AccessToken: options.accessTokenTtl ?? 600,
      AuthorizationCode: 60,
      IdToken: 600,
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
      RefreshToken: 3600,
    },
  })
  const tokenRequests = new Map<string, number>()
  const count = (ctx: OidcContext) => {
    const type = ctx.oidc?.params?.grant_type
    if (typeof type === 'string') tokenRequests.set(type, (tokenRequests.get(type) ?? 0) + 1)
  }
  provider.on('grant.success', count)
  provider.on('grant.error', count)
  const providerHandler = provider.callback()
  handle = (req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      finishInteraction(provider, req, res).catch((err: unknown) => res.writeHead(500).end(String(err)))
      return
    }
    providerHandler(req, res)
  }
  return {
    issuer,
    signInAs: (authorizationUrl, accountId) => driveSignIn(issuer, authorizationUrl, accountId),
    signJwt: (payload, typ = 'logout+jwt') =>
      new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid: 'op-rs256', typ }).sign(signingKey),
    browser() {
      const jar = new CookieJar()
      return {
        signInAs: (authorizationUrl, accountId) => driveSignIn(issuer, authorizationUrl, accountId, jar),
        authorize: (authorizationUrl) => followAuthorization(issuer, authorizationUrl, jar),
        endSession: (logoutUrl) => confirmEndSession(issuer, logoutUrl, jar),
      }
    },
    tokenRequests: (grantType) => tokenRequests.get(grantType) ?? 0,
    revoke: async (token, client) => {
      const response = await fetch(`${issuer}/token/revocation`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${btoa(`${client.id}:${client.secret}`)}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ token, token_type_hint: 'refresh_token' }),
      })
      if (response.status !== 200) throw new Error(`revocation answered ${response.status}`)
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
