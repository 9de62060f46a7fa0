/**
 * Every refusal is logged once, at warn, as `refused:<check>` with the flow id where there is a flow, and never with
 * a token, code, verifier or secret. Each check below is driven for real (real OP, a hostile OP fake for attacks a
 * real OP will not make, real Redis for single-use flows) and its console line is read as an operator would.
 */
import { Redis } from 'ioredis'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { ExpressAuth } from '../../src/frameworks/express.js'
import { RedisFlowStore } from '../../src/flow/stores/redis.js'
import { encode } from '../../src/jwt.js'
import { Auth, getAccessToken, requireRecentAuth } from '../../src/index.js'
import Email from '../../src/providers/email.js'
import OIDC from '../../src/providers/oidc.js'
import { MemoryAdapter } from '../../adapters/memory.js'
import { MemoryLogoutStore } from '../../src/flow/stores/logout.js'
import { refusalChecks, type RefusalCheck } from '../../src/types/refusals.js'
import type { AuthConfig } from '../../src/types/index.js'
import { http, startApp } from '../frameworks/express-http.js'
import { CookieJar, csrfToken, origin, send, testCredentials } from '../support/auth-harness.js'
import { startHostileOp, type HostileOp } from '../support/hostile-op.js'
import { startOidcProvider, type RunningOidcProvider } from '../support/oidc-provider.js'
import { describeWithService, probeRedis, redisUrl, scratchName } from '../support/services.js'
import Passkey from '../../src/providers/passkey.js'
import Credentials from '../../src/providers/credentials.js'
import { Secret, TOTP } from 'otpauth'
import { SoftAuthenticator, type CeremonyOverrides } from '../support/soft-authenticator.js'

const secret = 'refusal-log-test-secret-of-at-least-32-chars'

let op: RunningOidcProvider
let hostile: HostileOp
let redis: Redis
const redisPrefix = `${scratchName('refusals')}:`

beforeAll(async () => {
  op = await startOidcProvider({
    clients: [
      {
        client_id: 'app',
        client_secret: 'app-secret',
        redirect_uris: [
          `${origin}/auth/callback/idp`,
          `${origin}/auth/callback/other`,
          `${origin}/auth/callback/pkceonly`,
        ],
      },
    ],
  })
  hostile = await startHostileOp()
})
afterAll(async () => {
  await op?.close()
  await hostile?.close()
  if (redis) {
    const keys = await redis.keys(`${redisPrefix}*`)
    if (keys.length) await redis.del(...keys)
    redis.disconnect()
  }
})
afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

/** Console lines written at warn while `run` ran, with the built-in logger (no custom logger in the config). */
async function consoleWarnings(run: () => Promise<unknown>): Promise<string[]> {
  const lines: string[] = []
  vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
    lines.push(args.map(String).join(' '))
  })
  vi.spyOn(console, 'error').mockImplementation(() => {})
  await run()
  vi.restoreAllMocks()
  return lines
}

function config(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return {
    secret,
    trustHost: true,
    providers: [
      testCredentials(),
      OIDC({
        id: 'idp',
        name: 'IdP',
        issuer: op.issuer,
        clientId: 'app',
        clientSecret: 'app-secret',
        checks: ['pkce', 'state', 'nonce'],
      }),
      OIDC({ id: 'other', name: 'Other', issuer: op.issuer, clientId: 'app', clientSecret: 'app-secret' }),
      OIDC({
        id: 'hostile',
        name: 'Hostile',
        issuer: hostile.issuer,
        clientId: 'client',
        clientSecret: 'client-secret-of-at-least-32-bytes!!',
        checks: ['pkce', 'state', 'nonce'],
      }),
      OIDC({
        id: 'hostile-userinfo',
        name: 'Hostile userinfo',
        issuer: hostile.issuer,
        clientId: 'client',
        clientSecret: 'client-secret-of-at-least-32-bytes!!',
        checks: ['pkce', 'state', 'nonce'],
        idToken: false,
      }),
      OIDC({
        id: 'pkceonly',
        name: 'PKCE only',
        issuer: op.issuer,
        clientId: 'app',
        clientSecret: 'app-secret',
        checks: ['pkce'],
      }),
    ],
    ...overrides,
  }
}

/** Starts a sign-in with `providerId`; the jar keeps the flow cookie, the URL is the authorization request. */
async function begin(cfg: AuthConfig, providerId: string, jar = new CookieJar()) {
  const start = await send(cfg, `/auth/signin/${providerId}`, { jar, form: { csrfToken: await csrfToken(cfg, jar) } })
  return { jar, authorization: new URL(start.headers.get('location') as string) }
}

async function realCallback(authorization: URL) {
  const result = await op.signInAs(authorization, 'alice')
  if (result.mode !== 'query') throw new Error('expected a query response')
  return result.params
}

/** Values that must never reach a log line. */
const secrets = new Set<string>([secret, 'app-secret', 'client-secret-of-at-least-32-bytes!!'])
function remember(...values: Array<string | null | undefined>) {
  for (const value of values) if (value) secrets.add(value)
}

/** A JWT-session config whose OIDC provider may send back-channel logout tokens, with an in-memory logout store. */
function logoutConfig(): AuthConfig {
  return config({
    backchannelLogout: { store: new MemoryLogoutStore() },
    providers: [
      OIDC({
        id: 'idp',
        name: 'IdP',
        issuer: op.issuer,
        clientId: 'app',
        clientSecret: 'app-secret',
        checks: ['pkce', 'state', 'nonce'],
        backchannelLogout: true,
      }),
    ],
  })
}

/** A logout token for alice, signed with the real OP's key. */
async function logoutTokenForAlice(): Promise<string> {
  const now = Math.floor(Date.now() / 1000)
  const token = await op.signJwt({
    iss: op.issuer,
    aud: 'app',
    sub: 'alice',
    iat: now,
    exp: now + 120,
    jti: `jti-${now}-${Math.random()}`,
    events: { 'http://schemas.openid.net/event/backchannel-logout': {} },
  })
  remember(token)
  return token
}

async function postLogoutToken(cfg: AuthConfig, token: string) {
  return send(cfg, '/auth/backchannel-logout/idp', { form: { logout_token: token } })
}

/** An e-mail sign-in config on the memory adapter, whose links are remembered as secrets instead of being mailed. */
function emailConfig(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return {
    secret,
    trustHost: true,
    allowedOrigins: [origin],
    adapter: MemoryAdapter(),
    providers: [
      Email({
        rateLimit: { perAddress: 1 },
        sendVerificationRequest: ({ token, url }) => {
          remember(token, url)
        },
      }),
    ],
    ...overrides,
  }
}

async function requestEmailLink(cfg: AuthConfig, email: string): Promise<void> {
  const jar = new CookieJar()
  await send(cfg, '/auth/signin/email', { jar, form: { email, csrfToken: await csrfToken(cfg, jar) } })
}

/** A passkey deployment on the memory adapter, with a software authenticator that has registered one passkey. */
async function passkeySite() {
  const cfg: AuthConfig = {
    secret,
    trustHost: true,
    adapter: MemoryAdapter(),
    session: { strategy: 'jwt' },
    experimental: { enableWebAuthn: true },
    providers: [Passkey()],
  }
  const authenticator = new SoftAuthenticator(origin)
  const post = async (jar: CookieJar, action: string, data: unknown) => {
    await send(cfg, '/auth/callback/passkey', {
      jar,
      form: { action, data: JSON.stringify(data), csrfToken: await csrfToken(cfg, jar) },
    })
  }
  const optionsFor = async (jar: CookieJar, query = '') =>
    (
      (await (await send(cfg, `/auth/webauthn-options/passkey${query}`, { jar })).json()) as {
        options: { challenge: string; rp: { id?: string }; user: { id: string } }
      }
    ).options
  const jar = new CookieJar()
  await post(jar, 'register', authenticator.create(await optionsFor(jar, '?email=ada@example.com')))
  const signIn = async (overrides: CeremonyOverrides = {}) => {
    const next = new CookieJar()
    await post(next, 'authenticate', authenticator.get(await optionsFor(next), overrides))
  }
  return { cfg, authenticator, post, optionsFor, signIn }
}

/** A signed-in user of the memory adapter with a TOTP enrolment started (JSON), for the factor refusals. */
/**
 * A signed-in user midway through enrolling TOTP. `recordless`: an adapter whose session rows keep no record (an
 * Auth.js adapter); `extra`: more of the site's config.
 */
async function factorSite(options: { recordless?: boolean; extra?: Partial<AuthConfig> } = {}) {
  const extra = options.extra ?? {}
  const { listSessionsByUser, ...recordless } = MemoryAdapter()
  const adapter = options.recordless ? recordless : { ...recordless, listSessionsByUser }
  const user = await adapter.createUser({ id: 'u-ada', email: 'ada@example.com', emailVerified: null })
  const cfg = config({
    adapter,
    providers: [Credentials({ credentials: { username: {}, password: {} }, authorize: () => user })],
    ...extra,
  })
  const jar = new CookieJar()
  await send(cfg, '/auth/callback/credentials', {
    jar,
    form: { username: 'ada', password: 'x', csrfToken: await csrfToken(cfg, jar) },
  })
  const factors = async (form: Record<string, string>) =>
    send(cfg, '/auth/factors', {
      jar,
      json: { ...form, csrfToken: await csrfToken(cfg, jar) },
      headers: { accept: 'application/json' },
    })
  const started = (await (await factors({ intent: 'start' })).json()) as { enrolment: string; secret: string }
  remember(started.enrolment, started.secret, jar.cookies.get('authjs.session-token'))
  const code = (offsetSteps = 0) => {
    const value = new TOTP({ secret: Secret.fromBase32(started.secret) }).generate({
      timestamp: Date.now() + offsetSteps * 30_000,
    })
    remember(value)
    return value
  }
  return { factors, started, code, cfg }
}

/** A user with a confirmed TOTP factor signs in again with the password: the sign-in stops at the challenge. */
async function challengedSignIn(extra: Partial<AuthConfig> = {}) {
  const { factors, started, code, cfg } = await factorSite({ extra })
  expect((await factors({ intent: 'confirm', enrolment: started.enrolment, code: code() })).status).toBe(200)
  const jar = new CookieJar()
  const stopped = await send(cfg, '/auth/callback/credentials', {
    jar,
    form: { username: 'ada', password: 'x', csrfToken: await csrfToken(cfg, jar) },
  })
  expect(stopped.headers.get('location')).toMatch(/\/auth\/second-factor$/)
  const answer = async (form: Record<string, string>) =>
    send(cfg, '/auth/second-factor', {
      jar,
      json: { ...form, csrfToken: await csrfToken(cfg, jar) },
      headers: { accept: 'application/json' },
    })
  return { answer }
}

const drivers: Record<RefusalCheck, () => Promise<void>> = {
  'email-address': async () => {
    await requestEmailLink(emailConfig(), 'victim@example.test,attacker@evil.test')
  },
  'rate-limit': async () => {
    const cfg = emailConfig()
    await requestEmailLink(cfg, 'flooded@example.test')
    await requestEmailLink(cfg, 'flooded@example.test')
  },
  'verification-token': async () => {
    const cfg = emailConfig()
    const jar = new CookieJar()
    await send(cfg, '/auth/callback/email', {
      jar,
      form: { token: 'f'.repeat(64), email: 'someone@example.test', csrfToken: await csrfToken(cfg, jar) },
    })
  },
  'outbound-origin': async () => {
    // No url, and the request's origin is not on allowedOrigins: the link would carry whatever Host was sent.
    await requestEmailLink(emailConfig({ allowedOrigins: [] }), 'victim@example.test')
  },
  method: async () => {
    await send(config(), '/auth/session', { method: 'DELETE' })
  },
  'body-size': async () => {
    await send(config(), '/auth/callback/credentials', { form: { username: 'a'.repeat(70_000) } })
  },
  'body-timeout': async () => {
    // A body that never ends: its stream is left open.
    const body = new ReadableStream<Uint8Array>({ start: (controller) => controller.enqueue(new Uint8Array([97])) })
    await Auth(
      new Request(`${origin}/auth/callback/credentials`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
        duplex: 'half',
      } as RequestInit),
      config({ bodyTimeout: 50 }),
    )
  },
  host: async () => {
    const app = await startApp((server) => server.use(ExpressAuth(config())))
    try {
      await http(app.port, '/auth/session', { headers: { host: 'example.test:99999' } })
    } finally {
      await app.close()
    }
  },
  csrf: async () => {
    await send(config(), '/auth/callback/credentials', {
      form: { username: 'ada', password: 'lovelace', csrfToken: 'forged' },
    })
  },
  'callback-url': async () => {
    const cfg = config()
    const jar = new CookieJar()
    await send(cfg, '/auth/callback/credentials', {
      jar,
      form: {
        username: 'ada',
        password: 'lovelace',
        csrfToken: await csrfToken(cfg, jar),
        callbackUrl: `/${'x'.repeat(600)}`,
      },
    })
  },
  'credentials-input': async () => {
    // A JSON body whose username is not text: refused before any count or authorize().
    const cfg = config()
    const jar = new CookieJar()
    await send(cfg, '/auth/callback/credentials', {
      jar,
      json: { username: ['ada'], password: 'lovelace', csrfToken: await csrfToken(cfg, jar) },
    })
  },
  'credentials-lockout': async () => {
    const cfg = config({ providers: [{ ...testCredentials(), bruteForce: { maxFailures: 1 } }] })
    for (const password of ['wrong', 'lovelace']) {
      const jar = new CookieJar()
      await send(cfg, '/auth/callback/credentials', {
        jar,
        form: { username: 'ada', password, csrfToken: await csrfToken(cfg, jar) },
      })
    }
  },
  'redirect-proxy-origin': async () => {
    const cfg = config({
      redirectProxyUrl: 'http://auth.localhost:3000/auth',
      redirectProxyAllowedOrigins: ['http://*.preview.localhost:3000'],
    })
    await begin(cfg, 'other')
  },
  'redirect-proxy-state': async () => {
    // A state sealed with another secret cannot be decoded on the proxy.
    const foreign = await encode({
      token: { origin: 'http://preview-1.preview.localhost:3000/auth/callback/other', random: 'r' },
      secret: 'another-deployment-secret-of-32-characters',
      salt: 'encodedState',
      maxAge: 900,
    })
    remember(foreign)
    const proxy = config({
      redirectProxyUrl: 'http://auth.localhost:3000/auth',
      redirectProxyAllowedOrigins: ['http://*.preview.localhost:3000'],
    })
    await send(proxy, `/auth/callback/other?code=stolen-code-value&state=${encodeURIComponent(foreign)}`, {
      base: 'http://auth.localhost:3000',
    })
  },
  'redirect-proxy-target': async () => {
    const beginning = config({
      url: 'http://evil.attacker.test',
      redirectProxyUrl: 'http://auth.localhost:3000/auth',
      redirectProxyAllowedOrigins: ['http://evil.attacker.test'],
    })
    const { authorization } = await begin(beginning, 'other')
    const state = authorization.searchParams.get('state')
    remember(state)
    const proxy = config({
      redirectProxyUrl: 'http://auth.localhost:3000/auth',
      redirectProxyAllowedOrigins: ['http://*.preview.localhost:3000'],
    })
    await send(proxy, `/auth/callback/other?code=stolen-code-value&state=${encodeURIComponent(state as string)}`, {
      base: 'http://auth.localhost:3000',
    })
  },
  'callback-parameters': async () => {
    const cfg = config()
    const { jar } = await begin(cfg, 'idp')
    await send(cfg, '/auth/callback/idp', { jar })
  },
  'flow-missing': async () => {
    await send(config(), '/auth/callback/idp?code=some-code-value&state=some-state-value')
  },
  'flow-invalid': async () => {
    const jar = new CookieJar()
    jar.cookies.set('authchart.flow', 'not.a.sealed.flow.cookie')
    await send(config(), '/auth/callback/idp?code=some-code-value&state=x', { jar })
  },
  'flow-expired': async () => {
    const cfg = config()
    const { jar, authorization } = await begin(cfg, 'idp')
    remember(jar.cookies.get('authchart.flow'))
    const params = await realCallback(authorization)
    remember(params.get('code'), params.get('state'))
    // Eleven minutes later: past the machine's own ten-minute window, inside the store's grace period.
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 11 * 60 * 1000)
    await send(cfg, `/auth/callback/idp?${params}`, { jar })
  },
  'flow-replayed': async () => {
    redis ??= new Redis(redisUrl(), { maxRetriesPerRequest: 1 })
    const cfg = config({ flowStore: RedisFlowStore(redis, { prefix: redisPrefix }) })
    const { jar, authorization } = await begin(cfg, 'idp')
    const params = await realCallback(authorization)
    remember(params.get('code'), params.get('state'), jar.cookies.get('authchart.flow'))
    const replay = new CookieJar()
    replay.cookies.set('authchart.flow', jar.cookies.get('authchart.flow') as string)
    await send(cfg, `/auth/callback/idp?${params}`, { jar })
    await send(cfg, `/auth/callback/idp?${params}`, { jar: replay })
  },
  'provider-mismatch': async () => {
    const cfg = config()
    const { jar, authorization } = await begin(cfg, 'idp')
    const params = await realCallback(authorization)
    remember(params.get('code'), params.get('state'))
    await send(cfg, `/auth/callback/other?${params}`, { jar })
  },
  state: async () => {
    const cfg = config()
    const { jar, authorization } = await begin(cfg, 'idp')
    const params = await realCallback(authorization)
    remember(params.get('code'), params.get('state'))
    params.set('state', 'not-the-state')
    await send(cfg, `/auth/callback/idp?${params}`, { jar })
  },
  issuer: async () => {
    const cfg = config()
    const { jar, authorization } = await begin(cfg, 'hostile')
    hostile.behave({ callback: { iss: 'https://evil.example' } })
    const params = await hostile.authorize(authorization)
    remember(params.get('code'), params.get('state'))
    await send(cfg, `/auth/callback/hostile?${params}`, { jar })
    hostile.behave({})
  },
  pkce: async () => {
    // An injected code: the code of one flow with the verifier of another, exactly what PKCE exists to stop.
    const cfg = config()
    const first = await begin(cfg, 'pkceonly')
    const second = await begin(cfg, 'pkceonly')
    const params = await realCallback(first.authorization)
    remember(params.get('code'), second.jar.cookies.get('authchart.flow'))
    await send(cfg, `/auth/callback/pkceonly?${params}`, { jar: second.jar })
  },
  nonce: async () => {
    const cfg = config()
    const { jar, authorization } = await begin(cfg, 'hostile')
    hostile.behave({ idToken: { claims: (c) => ({ ...c, nonce: 'foreign' }) } })
    const params = await hostile.authorize(authorization)
    remember(params.get('code'))
    await send(cfg, `/auth/callback/hostile?${params}`, { jar })
    hostile.behave({})
  },
  'id-token': async () => {
    const cfg = config()
    const { jar, authorization } = await begin(cfg, 'hostile')
    hostile.behave({ idToken: { signing: 'unpublished-key' } })
    const params = await hostile.authorize(authorization)
    remember(params.get('code'))
    await send(cfg, `/auth/callback/hostile?${params}`, { jar })
    hostile.behave({})
  },
  'userinfo-signature': async () => {
    const cfg = config()
    const { jar, authorization } = await begin(cfg, 'hostile-userinfo')
    hostile.behave({ userinfoJwt: { signing: 'published-kid-wrong-key' } })
    const params = await hostile.authorize(authorization)
    remember(params.get('code'))
    await send(cfg, `/auth/callback/hostile-userinfo?${params}`, { jar })
    hostile.behave({})
  },
  'webauthn-registration': async () => {
    // Signed out, a passkey for an address that has an account: the options are given, the callback refuses.
    const site = await passkeySite()
    const jar = new CookieJar()
    await site.post(jar, 'register', site.authenticator.create(await site.optionsFor(jar, '?email=ada@example.com')))
  },
  'webauthn-challenge': async () => {
    const site = await passkeySite()
    await site.post(new CookieJar(), 'authenticate', { id: 'AAAA', response: {} })
  },
  'webauthn-session': async () => {
    // Options asked for while signed in (a further passkey for ada), answered after the session cookie is gone.
    const site = await passkeySite()
    const jar = new CookieJar()
    await site.post(jar, 'register', site.authenticator.create(await site.optionsFor(jar, '?email=grace@example.com')))
    const options = await site.optionsFor(jar)
    jar.cookies.delete('authjs.session-token')
    await site.post(jar, 'register', site.authenticator.create(options))
  },
  'unverified-passkey-account': async () => {
    // Someone's passkey made an account for ada@example.com (passkeySite); a link to that address does not enter it.
    const site = await passkeySite()
    let link = ''
    const cfg: AuthConfig = {
      ...site.cfg,
      allowedOrigins: [origin],
      providers: [
        ...(site.cfg.providers ?? []),
        Email({
          sendVerificationRequest: ({ token, url }) => {
            remember(token, url)
            link = url
          },
        }),
      ],
    }
    const jar = new CookieJar()
    await send(cfg, '/auth/signin/email', {
      jar,
      form: { email: 'ada@example.com', csrfToken: await csrfToken(cfg, jar) },
    })
    const { searchParams } = new URL(link)
    await send(cfg, '/auth/callback/email', {
      jar,
      form: {
        token: searchParams.get('token') ?? '',
        email: 'ada@example.com',
        csrfToken: await csrfToken(cfg, jar),
      },
    })
  },
  'webauthn-verification': async () => {
    await (await passkeySite()).signIn({ tamperSignature: true })
  },
  'webauthn-credential': async () => {
    const site = await passkeySite()
    const jar = new CookieJar()
    const data = site.authenticator.get(await site.optionsFor(jar))
    await site.post(jar, 'authenticate', { ...data, id: 'AAAAAAAAAAAAAAAAAAAAAA' })
  },
  'webauthn-counter': async () => {
    const site = await passkeySite()
    await site.signIn({ counter: 9 })
    await site.signIn({ counter: 2 })
  },
  'logout-token': async () => {
    const forged = 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJhbGljZSJ9.'
    remember(forged)
    await postLogoutToken(logoutConfig(), forged)
  },
  'logout-token-replayed': async () => {
    const cfg = logoutConfig()
    const token = await logoutTokenForAlice()
    await postLogoutToken(cfg, token)
    await postLogoutToken(cfg, token)
  },
  'session-revoked': async () => {
    const cfg = logoutConfig()
    const { jar, authorization } = await begin(cfg, 'idp')
    const params = await realCallback(authorization)
    await send(cfg, `/auth/callback/idp?${params}`, { jar })
    await postLogoutToken(cfg, await logoutTokenForAlice())
    await send(cfg, '/auth/session', { jar })
  },
  'session-token': async () => {
    const jar = new CookieJar()
    const token = await encode({
      token: { sub: 'u-ada' },
      secret,
      salt: 'authjs.session-token',
      maxAge: 10 * 365 * 86400,
    })
    remember(token)
    jar.cookies.set('authjs.session-token', token)
    await send(config(), '/auth/session', { jar })
  },
  'refresh-token': async () => {
    // Tokens must outlive an hour, the OP's access token lives ten minutes, and no refresh token came with it (no
    // offline_access asked for): the token is due and cannot be renewed, so the session is marked.
    const provider = OIDC({
      id: 'pkceonly',
      name: 'PKCE only',
      issuer: op.issuer,
      clientId: 'app',
      clientSecret: 'app-secret',
      tokenRefresh: { margin: 3600 },
    })
    const cfg = config({ providers: [provider] })
    const { jar, authorization } = await begin(cfg, 'pkceonly')
    await send(cfg, `/auth/callback/pkceonly?${await realCallback(authorization)}`, { jar })
    remember(jar.cookies.get('authjs.session-token'))
    const request = new Request(`${origin}/api/calendar`, { headers: { cookie: jar.header() } })
    const result = await getAccessToken(request, cfg, 'pkceonly')
    expect(result.error).toBe('RefreshTokenError')
  },
  'factor-enrolment': async () => {
    const { factors, code } = await factorSite()
    expect((await factors({ intent: 'confirm', enrolment: 'forged.token', code: code() })).status).toBe(400)
  },
  'factor-code': async () => {
    const { factors, started, code } = await factorSite()
    expect((await factors({ intent: 'confirm', enrolment: started.enrolment, code: code(-10) })).status).toBe(400)
  },
  'factor-unknown': async () => {
    const { factors } = await factorSite()
    expect((await factors({ intent: 'remove', factor: 'someone-elses' })).status).toBe(404)
  },
  'second-factor-code': async () => {
    const { answer } = await challengedSignIn()
    expect((await answer({ factor: 'otp', code: '000000' })).status).toBe(401)
  },
  'second-factor-limit': async () => {
    // One wrong answer allowed per account: the first ends the challenge, logged as the limit (not also as a code).
    const { answer } = await challengedSignIn({ secondFactor: { maxAttemptsPerAccount: 1 } })
    expect((await answer({ factor: 'otp', code: '000000' })).status).toBe(403)
  },
  'factor-reauth': async () => {
    // The session records no sign-in time (`auth_time`; an Auth.js adapter's row, no session store): removing the
    // last factor is refused.
    const { factors, started, code } = await factorSite({ recordless: true })
    const confirmed = await factors({ intent: 'confirm', enrolment: started.enrolment, code: code() })
    const { factor } = (await confirmed.json()) as { factor: { id: string }; recoveryCodes: string[] }
    expect((await factors({ intent: 'remove', factor: factor.id })).status).toBe(403)
  },
  'step-up': async () => {
    // A valid session signed in an hour ago, at a route that needs a sign-in of the last five minutes.
    const token = await encode({
      token: { sub: 'u-ada', auth_time: Math.floor(Date.now() / 1000) - 3600, amr: ['pwd'] },
      secret,
      salt: 'authjs.session-token',
    })
    remember(token)
    const request = new Request(`${origin}/account/delete`, { headers: { cookie: `authjs.session-token=${token}` } })
    expect((await requireRecentAuth(request, config(), { maxAge: 300 }))?.status).toBe(303)
  },
}

/** Checks whose refusal concerns a flow, so their line names the flow id. */
const flowChecks = new Set<RefusalCheck>([
  'csrf',
  'credentials-input',
  'credentials-lockout',
  'redirect-proxy-origin',
  'flow-expired',
  'provider-mismatch',
  'state',
  'issuer',
  'pkce',
  'nonce',
  'id-token',
  'userinfo-signature',
  'second-factor-limit',
])

await describeWithService('redis', probeRedis, () => {
  describe('refusal log lines', () => {
    it('has a driver for every documented check', () => {
      expect(Object.keys(drivers).sort()).toEqual([...refusalChecks].sort())
    })

    it.each([...refusalChecks])('refused:%s is logged once, at warn, with no secret in it', async (check) => {
      const lines = await consoleWarnings(drivers[check])
      const refusals = lines.filter((line) => line.includes('[refused:'))
      expect(refusals).toHaveLength(1)
      const line = refusals[0]
      expect(line.startsWith(`[authchart][warn][refused:${check}]`)).toBe(true)
      if (flowChecks.has(check) && check !== 'csrf') expect(line).toMatch(/flowId=\S+/)
      for (const value of secrets) expect(line).not.toContain(value)
    })
  })
})
