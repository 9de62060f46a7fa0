/**
 * Provider token refresh against a real `oidc-provider` on a loopback port, with refresh tokens rotated on every use
 * (a rotated token used again revokes the whole grant, as oidc-provider does) and access tokens that live 2 seconds.
 * Sessions are made by real sign-ins through `Auth()`; `getAccessToken` is called the way an app route calls it; the
 * OP's own count of token requests says how many refreshes there were, and its userinfo endpoint says whether a
 * handed-out access token is valid.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemoryAdapter, createMemoryStore, type MemoryStore } from '../../adapters/memory.js'
import { getAccessToken } from '../../src/index.js'
import { decode } from '../../src/jwt.js'
import OIDC from '../../src/providers/oidc.js'
import type { AccessTokenResult, AuthConfig, JWT, TokenRefreshOptions } from '../../src/types/index.js'
import { CookieJar, csrfToken, origin, secret, send, session, testConfig } from '../support/auth-harness.js'
import { startOidcProvider, type RunningOidcProvider } from '../support/oidc-provider.js'

const client = { id: 'refresh-app', secret: 'refresh-app-secret' }
const accessTokenTtl = 2
const sessionCookie = 'authjs.session-token'

let op: RunningOidcProvider

beforeAll(async () => {
  op = await startOidcProvider({
    clients: [
      {
        client_id: client.id,
        client_secret: client.secret,
        redirect_uris: [`${origin}/auth/callback/idp`],
        grant_types: ['authorization_code', 'refresh_token'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    refreshTokens: { rotate: true },
    accessTokenTtl,
  })
})

afterAll(async () => {
  await op?.close()
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
/** Until every access token issued before now has expired (`expires_at` is whole seconds). */
const outliveAccessToken = () => sleep((accessTokenTtl + 1.1) * 1000)

function idp(tokenRefresh: boolean | TokenRefreshOptions = { margin: 0 }) {
  return OIDC({
    id: 'idp',
    name: 'IdP',
    issuer: op.issuer,
    clientId: client.id,
    clientSecret: client.secret,
    // oidc-provider issues a refresh token for offline_access, which it honours only with prompt=consent.
    authorization: { params: { scope: 'openid profile email offline_access', prompt: 'consent' } },
    tokenRefresh,
  })
}

function refreshConfig(overrides: Partial<AuthConfig> = {}, tokenRefresh?: boolean | TokenRefreshOptions) {
  return testConfig({ providers: [idp(tokenRefresh)], ...overrides })
}

/** A browser signed in as alice through the real OP. */
async function signIn(config: AuthConfig): Promise<CookieJar> {
  const jar = new CookieJar()
  const token = await csrfToken(config, jar)
  const started = await send(config, '/auth/signin/idp', { jar, form: { csrfToken: token, callbackUrl: '/' } })
  const result = await op.signInAs(started.headers.get('location') as string, 'alice')
  if (result.mode !== 'query') throw new Error('expected a query response')
  const callback = await send(config, `${result.callbackUrl.pathname}${result.callbackUrl.search}`, { jar })
  expect(callback.status).toBe(302)
  expect(jar.cookies.has(sessionCookie)).toBe(true)
  return jar
}

/** `getAccessToken` as an app route calls it, with the browser's cookies. */
function accessToken(config: AuthConfig, cookies: string): Promise<AccessTokenResult> {
  return getAccessToken(new Request(`${origin}/api/calendar`, { headers: { cookie: cookies } }), config, 'idp')
}

/** The `Set-Cookie` lines of a result, taken into a jar as the browser would. */
function take(jar: CookieJar, result: AccessTokenResult): CookieJar {
  const headers = new Headers()
  for (const line of result.setCookie) headers.append('set-cookie', line)
  return jar.take(new Response(null, { headers }))
}

/** Whether a result is a renewed access token. */
const renewed = (result: AccessTokenResult) => result.error === undefined && result.refreshed

/** Whether the OP accepts an access token (its userinfo endpoint answers 200). */
async function opAccepts(token: string | undefined): Promise<boolean> {
  const response = await fetch(`${op.issuer}/me`, { headers: { authorization: `Bearer ${token}` } })
  return response.status === 200
}

/** The session token in a jar, decoded. */
async function sessionToken(jar: CookieJar): Promise<JWT> {
  const token = await decode({ token: jar.cookies.get(sessionCookie), secret, salt: sessionCookie })
  if (!token) throw new Error('no session token')
  return token
}

interface Kept {
  access_token?: string
  refresh_token?: string
  expires_at?: number
}

function keptTokens(token: JWT): Kept {
  const claim = token['authchart:tokens']
  const entry: unknown =
    typeof claim === 'object' && claim !== null ? (claim as Record<string, unknown>).idp : undefined
  const kept: Kept = typeof entry === 'object' && entry !== null ? entry : {}
  return kept
}

describe('getAccessToken with JWT sessions', () => {
  it('hands out the access token of the sign-in while it is valid, without a refresh', async () => {
    const config = refreshConfig()
    const jar = await signIn(config)
    const before = op.tokenRequests('refresh_token')
    const result = await accessToken(config, jar.header())
    expect(result).toMatchObject({ refreshed: false, setCookie: [] })
    expect(result.accessToken).toBe(keptTokens(await sessionToken(jar)).access_token)
    expect(await opAccepts(result.accessToken)).toBe(true)
    expect(op.tokenRequests('refresh_token')).toBe(before)
  })

  it('50 concurrent requests of one session with an expired access token cause exactly one refresh', async () => {
    const config = refreshConfig()
    const jar = await signIn(config)
    const signedIn = keptTokens(await sessionToken(jar))
    await outliveAccessToken()
    expect(await opAccepts(signedIn.access_token)).toBe(false)
    const before = op.tokenRequests('refresh_token')
    const results = await Promise.all(Array.from({ length: 50 }, () => accessToken(config, jar.header())))
    expect(op.tokenRequests('refresh_token') - before).toBe(1)
    const tokens = new Set(results.map((r) => r.accessToken))
    expect(tokens.size).toBe(1)
    expect(results.every((r) => renewed(r) && r.setCookie.length > 0)).toBe(true)
    expect(await opAccepts(results[0]?.accessToken)).toBe(true)
    // Every response carries the re-issued cookie with the one new token pair.
    for (const result of results.slice(0, 5)) {
      const kept = keptTokens(await sessionToken(take(new CookieJar(), result)))
      expect(kept.access_token).toBe(results[0]?.accessToken)
      expect(kept.refresh_token).not.toBe(signedIn.refresh_token)
    }
  })

  it('a rotated refresh token works on the next refresh, and the old cookie gets the new tokens, not a reuse', async () => {
    const config = refreshConfig()
    const jar = await signIn(config)
    const oldCookies = jar.header()
    await outliveAccessToken()
    const first = await accessToken(config, jar.header())
    expect(renewed(first)).toBe(true)
    take(jar, first)
    const rotated = keptTokens(await sessionToken(jar))
    expect(rotated.access_token).toBe(first.accessToken)

    // A request that left the browser before the new cookie arrived: handed the same new tokens, no second refresh
    // (with rotation, spending the old refresh token again would make the OP revoke the whole grant).
    const before = op.tokenRequests('refresh_token')
    const late = await accessToken(config, oldCookies)
    expect(late.accessToken).toBe(first.accessToken)
    expect(op.tokenRequests('refresh_token')).toBe(before)

    await outliveAccessToken()
    const second = await accessToken(config, jar.header())
    expect(second).toMatchObject({ refreshed: true })
    expect(second.accessToken).not.toBe(first.accessToken)
    expect(op.tokenRequests('refresh_token')).toBe(before + 1)
    expect(await opAccepts(second.accessToken)).toBe(true)
    take(jar, second)
    expect(keptTokens(await sessionToken(jar)).refresh_token).not.toBe(rotated.refresh_token)
  })

  it('an old cookie whose renewed token has run short too is led on to the next refresh, never to a reuse', async () => {
    const config = refreshConfig()
    const jar = await signIn(config)
    const oldCookies = jar.header()
    await outliveAccessToken()
    const first = await accessToken(config, jar.header())
    expect(renewed(first)).toBe(true)
    await outliveAccessToken()
    // The browser never got the first renewal's cookie; its old refresh token was rotated away meanwhile.
    const before = op.tokenRequests('refresh_token')
    const late = await accessToken(config, oldCookies)
    expect(renewed(late)).toBe(true)
    expect(late.accessToken).not.toBe(first.accessToken)
    expect(op.tokenRequests('refresh_token')).toBe(before + 1)
    expect(await opAccepts(late.accessToken)).toBe(true)
    // And the refresh token that came with it is alive: the grant was not revoked by a reuse.
    const after = take(new CookieJar(), late)
    await outliveAccessToken()
    expect(renewed(await accessToken(config, after.header()))).toBe(true)
  })

  it('a revoked refresh token marks the session: session.error, one refusal logged, no retry at the OP', async () => {
    const config = refreshConfig()
    const jar = await signIn(config)
    await op.revoke(keptTokens(await sessionToken(jar)).refresh_token as string, client)
    await outliveAccessToken()
    const before = op.tokenRequests('refresh_token')
    const results = await Promise.all(Array.from({ length: 5 }, () => accessToken(config, jar.header())))
    expect(results.map((r) => r.error)).toEqual(Array(5).fill('RefreshTokenError'))
    expect(op.tokenRequests('refresh_token') - before).toBe(1)
    for (const result of results) take(jar, result)
    expect(((await session(config, jar)) as { error?: string; user?: object }).error).toBe('RefreshTokenError')
    expect(config.recorded.refusals).toEqual([
      { code: 'refused:refresh-token', detail: expect.objectContaining({ reason: 'invalid_grant' }) as object },
    ])
    // Marked: neither token is kept, so the next call answers at once.
    expect(keptTokens(await sessionToken(jar))).toEqual({})
    expect((await accessToken(config, jar.header())).error).toBe('RefreshTokenError')
    expect(op.tokenRequests('refresh_token') - before).toBe(1)
    expect(config.recorded.refusals).toHaveLength(1)
  })

  it('with onFailure "endSession", a revoked refresh token ends the session', async () => {
    const config = refreshConfig({}, { margin: 0, onFailure: 'endSession' })
    const signedOut: unknown[] = []
    config.events = { signOut: (message) => void signedOut.push(message) }
    const jar = await signIn(config)
    await op.revoke(keptTokens(await sessionToken(jar)).refresh_token as string, client)
    await outliveAccessToken()
    const result = await accessToken(config, jar.header())
    expect(result.error).toBe('RefreshTokenError')
    take(jar, result)
    expect(jar.cookies.has(sessionCookie)).toBe(false)
    expect(await session(config, jar)).toBeNull()
    expect(signedOut).toHaveLength(1)
  })

  it("keeps the tokens out of the app's callbacks and out of what the client sees", async () => {
    const seen: JWT[] = []
    const config = refreshConfig({
      callbacks: {
        jwt: ({ token }) => {
          seen.push(token)
          return token
        },
        // A careless callback that hands the whole token to the client.
        session: ({ session, token }) => ({ ...session, token }),
      },
    })
    const jar = await signIn(config)
    const body = JSON.stringify(await session(config, jar))
    const kept = keptTokens(await sessionToken(jar))
    expect(kept.refresh_token).toBeTruthy()
    expect(body).not.toContain(kept.refresh_token as string)
    expect(body).not.toContain(kept.access_token as string)
    expect(body).not.toContain('authchart:tokens')
    expect(seen.length).toBeGreaterThan(0)
    expect(seen.every((token) => !('authchart:tokens' in token))).toBe(true)
  })

  it('answers SessionRequired without a session and Configuration for a provider without tokenRefresh', async () => {
    const config = refreshConfig()
    expect(await accessToken(config, '')).toEqual({ error: 'SessionRequired', setCookie: [] })
    expect(await accessToken(config, `${sessionCookie}=garbage`)).toEqual({ error: 'SessionRequired', setCookie: [] })
    const plain = testConfig({ providers: [idp(false)] })
    expect(await getAccessToken(new Request(`${origin}/x`), plain, 'idp')).toEqual({
      error: 'Configuration',
      setCookie: [],
    })
    expect(plain.recorded.errors.map((e) => e.message)).toContainEqual(expect.stringContaining('no tokenRefresh'))
  })
})

describe('getAccessToken with database sessions', () => {
  let store: MemoryStore
  const databaseConfig = () => {
    store = createMemoryStore()
    return refreshConfig({ adapter: MemoryAdapter(store) })
  }
  const account = () => [...store.accounts.values()].find((a) => a.provider === 'idp')

  it('50 concurrent requests refresh once, and the account row holds the rotated tokens', async () => {
    const config = databaseConfig()
    const jar = await signIn(config)
    const signedIn = { ...account() }
    expect(signedIn.refresh_token).toBeTruthy()
    await outliveAccessToken()
    const before = op.tokenRequests('refresh_token')
    const results = await Promise.all(Array.from({ length: 50 }, () => accessToken(config, jar.header())))
    expect(op.tokenRequests('refresh_token') - before).toBe(1)
    expect(new Set(results.map((r) => r.accessToken)).size).toBe(1)
    // The cookie holds only the session id: nothing to re-issue. A request that read the account row after the
    // refresh wrote it finds the new token valid there.
    expect(results.every((r) => r.setCookie.length === 0)).toBe(true)
    expect(results.some(renewed)).toBe(true)
    expect(account()).toMatchObject({ access_token: results[0]?.accessToken })
    expect(account()?.refresh_token).not.toBe(signedIn.refresh_token)
    expect(await opAccepts(results[0]?.accessToken)).toBe(true)

    await outliveAccessToken()
    const next = await accessToken(config, jar.header())
    expect(renewed(next)).toBe(true)
    expect(op.tokenRequests('refresh_token') - before).toBe(2)
    expect(await opAccepts(next.accessToken)).toBe(true)
  })

  it('a revoked refresh token marks every session of the user through the account row', async () => {
    const config = databaseConfig()
    const jar = await signIn(config)
    await op.revoke(account()?.refresh_token as string, client)
    await outliveAccessToken()
    expect((await accessToken(config, jar.header())).error).toBe('RefreshTokenError')
    expect(account()?.refresh_token).toBeUndefined()
    expect(((await session(config, jar)) as { error?: string }).error).toBe('RefreshTokenError')
  })

  it('with onFailure "endSession", a refused refresh ends the other sessions of the user on their next check', async () => {
    store = createMemoryStore()
    const config = refreshConfig({ adapter: MemoryAdapter(store) }, { margin: 0, onFailure: 'endSession' })
    const laptop = await signIn(config)
    const phone = await signIn(config)
    expect(store.sessions.size).toBe(2)
    await op.revoke(account()?.refresh_token as string, client)
    await outliveAccessToken()
    const result = await accessToken(config, laptop.header())
    expect(result.error).toBe('RefreshTokenError')
    take(laptop, result)
    expect(laptop.cookies.has(sessionCookie)).toBe(false)
    expect(store.sessions.size).toBe(1)
    // The phone's session shares the dead account row: its next check ends it too.
    expect(await session(config, phone)).toBeNull()
    expect(phone.cookies.has(sessionCookie)).toBe(false)
    expect(store.sessions.size).toBe(0)
  })

  it('a new sign-in replaces the tokens of an account row that already existed', async () => {
    const config = databaseConfig()
    await signIn(config)
    const first = { ...account() }
    await signIn(config)
    expect(account()?.refresh_token).toBeTruthy()
    expect(account()?.refresh_token).not.toBe(first.refresh_token)
  })
})
