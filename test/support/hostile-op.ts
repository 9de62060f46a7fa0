/**
 * A small OpenID Provider of our own on node:http that can misbehave on purpose. A real OP (oidc-provider) will not
 * sign with an unpublished key, send `alg: none`, or hang on a token request, so the attacks on the client have to
 * come from a fake; it speaks just enough of the protocol (discovery, JWKS, authorize, token, userinfo) for a
 * complete sign-in when it behaves, with single-use codes and S256 PKCE like a real one, and refresh tokens rotated
 * on every use; its misbehaviours apply to refresh answers too.
 *
 * ```ts
 * const op = await startHostileOp()
 * op.behave({ idToken: { claims: (claims) => ({ ...claims, iss: 'https://evil.example' }) } })
 * ```
 */
import { createHash, KeyObject, randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose'
import { readRequestBody } from './read-request-body.js'

/** How the ID token is signed: honestly, or in one of the ways an attacker would try. */
export type IdTokenSigning =
  | 'honest'
  | 'unpublished-key'
  | 'published-kid-wrong-key'
  | 'alg-none'
  | 'hs256-with-public-key'
  | { hs256Secret: string }

/** What the OP does wrong from now on. Everything unset behaves. */
export interface HostileBehaviour {
  /** Members replaced in the discovery document (another `issuer`, a plain-http `token_endpoint`, ...). */
  discovery?: Record<string, unknown>
  /** `id_token_signing_alg_values_supported`; by default it even advertises HS256 and none. */
  advertisedAlgorithms?: string[]
  /** The authorization response: `iss` (null leaves it out), a replaced `state`, or an error instead of a code. */
  callback?: { iss?: string | null; state?: string; error?: Record<string, string> }
  /** The token endpoint's transport: hang forever, answer an HTML page, or cut the JSON short. */
  tokenTransport?: 'hang' | 'html' | 'truncated-json'
  /** Rewrites the token endpoint's JSON body. */
  tokenBody?: (body: Record<string, unknown>) => Record<string, unknown>
  idToken?: { signing?: IdTokenSigning; claims?: (claims: JWTPayload) => JWTPayload }
  /** The userinfo endpoint's answer instead of the victim's claims. */
  userinfo?: { status: number; body: unknown }
  /** Headers added to every userinfo and token answer (FusionAuth sends `WWW-Authenticate` with its 200s). */
  extraHeaders?: Record<string, string>
  /** Userinfo answered as a signed JWT (`application/jwt`, OIDC Core §5.3.2), signed as `signing` says. */
  userinfoJwt?: { signing: IdTokenSigning; claims?: JWTPayload }
}

export interface HostileOp {
  issuer: string
  behave(behaviour: HostileBehaviour): void
  /** Follows an authorization URL the way a browser would and returns the callback parameters it was sent back with. */
  authorize(authorizationUrl: URL, subject?: string): Promise<URLSearchParams>
  close(): Promise<void>
}

interface IssuedCode {
  clientId: string
  redirectUri: string
  nonce?: string
  codeChallenge?: string
  subject: string
  used: boolean
}

const base64url = (bytes: Buffer) => bytes.toString('base64url')

function json(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  res.writeHead(status, { ...extra, 'content-type': 'application/json' }).end(JSON.stringify(body))
}

function clientIdOf(req: IncomingMessage, form: URLSearchParams): string | undefined {
  const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1]
  if (basic) return decodeURIComponent(Buffer.from(basic, 'base64').toString().split(':')[0] ?? '')
  return form.get('client_id') ?? undefined
}

/** Starts the hostile OP on 127.0.0.1 with a random port. */
export async function startHostileOp(): Promise<HostileOp> {
  const published = await generateKeyPair('RS256', { extractable: true })
  const unpublished = await generateKeyPair('RS256', { extractable: true })
  const publicJwk = { ...(await exportJWK(published.publicKey)), kid: 'published', alg: 'RS256', use: 'sig' }
  const codes = new Map<string, IssuedCode>()
  const refreshTokens = new Map<string, IssuedCode>()
  let behaviour: HostileBehaviour = {}
  const server = createServer((req, res) => {
    route(req, res).catch((err: unknown) => json(res, 500, { error: 'server_error', error_description: String(err) }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  async function signIdToken(claims: JWTPayload): Promise<string> {
    const payload = behaviour.idToken?.claims ? behaviour.idToken.claims(claims) : claims
    return signJwt(payload, behaviour.idToken?.signing ?? 'honest')
  }

  async function signJwt(payload: JWTPayload, signing: IdTokenSigning): Promise<string> {
    if (signing === 'alg-none') {
      const encode = (value: unknown) => base64url(Buffer.from(JSON.stringify(value)))
      return `${encode({ alg: 'none', typ: 'JWT' })}.${encode(payload)}.`
    }
    if (signing === 'hs256-with-public-key') {
      // The classic key-confusion attack: HMAC keyed with the bytes of the OP's own public key, which anyone can get.
      const pem = KeyObject.from(published.publicKey).export({ type: 'spki', format: 'pem' })
      return new SignJWT(payload).setProtectedHeader({ alg: 'HS256', kid: 'published' }).sign(Buffer.from(pem))
    }
    if (typeof signing === 'object')
      return new SignJWT(payload)
        .setProtectedHeader({ alg: 'HS256' })
        .sign(new TextEncoder().encode(signing.hs256Secret))
    const [key, kid] =
      signing === 'honest'
        ? [published.privateKey, 'published']
        : [unpublished.privateKey, signing === 'unpublished-key' ? 'unpublished' : 'published']
    return new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid }).sign(key)
  }

  /** The code grant's checks: the grant it stands for, or null after answering the refusal. */
  function codeGrant(req: IncomingMessage, res: ServerResponse, form: URLSearchParams): IssuedCode | null {
    const issued = codes.get(form.get('code') ?? '')
    const clientId = clientIdOf(req, form)
    if (!issued || issued.used || issued.clientId !== clientId || issued.redirectUri !== form.get('redirect_uri')) {
      json(res, 400, { error: 'invalid_grant' })
      return null
    }
    issued.used = true
    const verifier = form.get('code_verifier')
    if (
      issued.codeChallenge &&
      (!verifier || base64url(createHash('sha256').update(verifier).digest()) !== issued.codeChallenge)
    ) {
      json(res, 400, { error: 'invalid_grant', error_description: 'PKCE verification failed' })
      return null
    }
    return issued
  }

  /** The refresh grant (RFC 6749 §6): each refresh token once, rotated on every use. */
  function refreshGrant(req: IncomingMessage, res: ServerResponse, form: URLSearchParams): IssuedCode | null {
    const refreshToken = form.get('refresh_token') ?? ''
    const issued = refreshTokens.get(refreshToken)
    if (!issued || issued.clientId !== clientIdOf(req, form)) {
      json(res, 400, { error: 'invalid_grant' })
      return null
    }
    // A broken transport stands for a gateway that failed in front of the OP: the refresh token was never spent.
    if (!behaviour.tokenTransport) refreshTokens.delete(refreshToken)
    // OIDC Core §12.2: the refreshed ID token repeats the sign-in's claims, nonce included.
    return issued
  }

  async function token(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const form = new URLSearchParams(await readRequestBody(req))
    const issued = form.get('grant_type') === 'refresh_token' ? refreshGrant(req, res, form) : codeGrant(req, res, form)
    if (!issued) return
    if (behaviour.tokenTransport === 'hang') return
    if (behaviour.tokenTransport === 'html') {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><h1>502 Bad Gateway</h1></body></html>')
      return
    }
    if (behaviour.tokenTransport === 'truncated-json') {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end('{"access_token":"abc","token_type":"Bearer","id_tok')
      return
    }
    const now = Math.floor(Date.now() / 1000)
    const claims: JWTPayload = {
      iss: issuer,
      sub: issued.subject,
      aud: issued.clientId,
      iat: now,
      exp: now + 300,
      ...(issued.nonce ? { nonce: issued.nonce } : {}),
    }
    const refreshToken = base64url(randomBytes(24))
    refreshTokens.set(refreshToken, issued)
    const body: Record<string, unknown> = {
      access_token: base64url(randomBytes(24)),
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'openid',
      id_token: await signIdToken(claims),
      refresh_token: refreshToken,
    }
    json(res, 200, behaviour.tokenBody ? behaviour.tokenBody(body) : body, behaviour.extraHeaders)
  }

  function authorizeEndpoint(url: URL, res: ServerResponse): void {
    const params = url.searchParams
    const redirect = new URL(params.get('redirect_uri') ?? '')
    const code = base64url(randomBytes(16))
    const nonce = params.get('nonce') ?? undefined
    const codeChallenge = params.get('code_challenge') ?? undefined
    codes.set(code, {
      clientId: params.get('client_id') ?? '',
      redirectUri: redirect.href,
      nonce,
      codeChallenge,
      subject: params.get('login_hint') ?? 'victim',
      used: false,
    })
    const answer = behaviour.callback?.error ? { ...behaviour.callback.error } : { code }
    for (const [key, value] of Object.entries(answer)) redirect.searchParams.set(key, value)
    const state = behaviour.callback?.state ?? params.get('state')
    if (state) redirect.searchParams.set('state', state)
    const iss = behaviour.callback?.iss === undefined ? issuer : behaviour.callback.iss
    if (iss !== null) redirect.searchParams.set('iss', iss)
    res.writeHead(302, { location: redirect.href }).end()
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', issuer)
    switch (`${req.method} ${url.pathname}`) {
      case 'GET /.well-known/openid-configuration':
        return json(res, 200, {
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          userinfo_endpoint: `${issuer}/userinfo`,
          userinfo_signing_alg_values_supported: ['RS256'],
          jwks_uri: `${issuer}/jwks`,
          response_types_supported: ['code'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: behaviour.advertisedAlgorithms ?? ['RS256', 'HS256', 'none'],
          code_challenge_methods_supported: ['S256'],
          authorization_response_iss_parameter_supported: true,
          ...behaviour.discovery,
        })
      case 'GET /jwks':
        return json(res, 200, { keys: [publicJwk] })
      case 'GET /authorize':
        return authorizeEndpoint(url, res)
      case 'POST /token':
        return token(req, res)
      case 'GET /userinfo':
        if (behaviour.userinfoJwt) {
          const { signing, claims } = behaviour.userinfoJwt
          const body = await signJwt(
            { sub: 'victim', email: 'victim@example.test', iss: issuer, aud: 'client', ...claims },
            signing,
          )
          res.writeHead(200, { 'content-type': 'application/jwt' }).end(body)
          return
        }
        if (behaviour.userinfo)
          return json(res, behaviour.userinfo.status, behaviour.userinfo.body, behaviour.extraHeaders)
        return json(res, 200, { sub: 'victim', email: 'victim@example.test', name: 'Vic Tim' }, behaviour.extraHeaders)
      default:
        return json(res, 404, { error: 'not_found' })
    }
  }

  return {
    issuer,
    behave(next) {
      behaviour = next
    },
    async authorize(authorizationUrl, subject) {
      const url = new URL(authorizationUrl)
      if (subject) url.searchParams.set('login_hint', subject)
      const response = await fetch(url, { redirect: 'manual' })
      const location = response.headers.get('location')
      if (!location) throw new Error(`hostile OP did not redirect: ${response.status}`)
      return new URL(location).searchParams
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
