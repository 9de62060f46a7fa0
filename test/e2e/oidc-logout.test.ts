/**
 * Federated logout over real HTTP against a real `oidc-provider` on loopback with RP-initiated and back-channel
 * logout enabled: signing out ends the OP session too (the OP then asks for a login again), the OP's back-channel
 * logout ends the matching JWT and database sessions (and no others), and replayed or forged logout tokens are
 * refused with 400 and one log line each.
 */
import { Redis } from 'ioredis'
import { generateKeyPair, SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryStore, MemoryAdapter, type MemoryStore } from '../../adapters/memory.js'
import { MemoryLogoutStore, RedisLogoutStore } from '../../src/flow/stores/logout.js'
import OIDC from '../../src/providers/oidc.js'
import type { Adapter } from '../../src/types/adapters.js'
import { encode } from '../../src/jwt.js'
import { CookieJar, csrfToken, origin, secret, send, testConfig } from '../support/auth-harness.js'
import { HttpBrowser } from '../support/http-site.js'
import { postLogoutToken, signIn, startLogoutSite, startSignIn, type LogoutSite } from '../support/logout-site.js'
import { decodeJwt } from 'jose'

const logoutEvent = 'http://schemas.openid.net/event/backchannel-logout'

type MemoryLogoutSite = LogoutSite & { memory: MemoryStore }

/** A real Redis client pointed at a port where no Redis listens, failing at once instead of queueing. */
function unreachableRedis(): Redis {
  const dead = new Redis('redis://127.0.0.1:9', {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    lazyConnect: true,
  })
  dead.on('error', () => {})
  return dead
}

/** The shared logout site, its database sessions (if any) in the memory adapter. */
async function startMemoryLogoutSite(strategy: 'jwt' | 'database'): Promise<MemoryLogoutSite> {
  const memory = createMemoryStore()
  const site = await startLogoutSite({
    strategy,
    ...(strategy === 'database' ? { adapter: MemoryAdapter(memory) } : {}),
  })
  return { ...site, memory }
}

describe('federated logout, JWT sessions', () => {
  let s: MemoryLogoutSite
  beforeAll(async () => {
    s = await startMemoryLogoutSite('jwt')
  })
  afterAll(async () => {
    await s?.close()
  })

  it('RP-initiated logout ends the OP session: the next authorization shows the login prompt', async () => {
    const browser = new HttpBrowser(s.site.origin)
    const opBrowser = s.op.browser()
    await signIn(browser, opBrowser, 'alice')
    // While the OP session lives, the OP answers a new authorization at once, without a login page.
    const live = await opBrowser.authorize(await startSignIn(browser))
    expect('callbackUrl' in live).toBe(true)

    const csrfToken = await browser.csrfToken()
    const signOut = await browser.request('/auth/signout', { form: { csrfToken, callbackUrl: '/signed-out' } })
    expect(signOut.status).toBe(302)
    const logoutUrl = new URL(signOut.headers.get('location') as string)
    expect(`${logoutUrl.origin}${logoutUrl.pathname}`).toBe(`${s.op.issuer}/session/end`)
    expect(logoutUrl.searchParams.get('post_logout_redirect_uri')).toBe(`${s.site.origin}/signed-out`)
    expect(logoutUrl.searchParams.get('client_id')).toBe('app')
    expect(logoutUrl.searchParams.get('id_token_hint')?.split('.')).toHaveLength(3)
    expect(await browser.session()).toBeNull()

    const landing = await opBrowser.endSession(logoutUrl)
    expect(landing.href).toBe(`${s.site.origin}/signed-out`)
    const after = await opBrowser.authorize(await startSignIn(browser))
    expect(after).toEqual({ prompt: 'login' })
  })

  it('a sign-out callback URL on another origin is not sent to the OP as post_logout_redirect_uri', async () => {
    const browser = new HttpBrowser(s.site.origin)
    await signIn(browser, s.op.browser(), 'alice')
    const csrfToken = await browser.csrfToken()
    const signOut = await browser.request('/auth/signout', {
      form: { csrfToken, callbackUrl: 'https://evil.example/steal' },
    })
    const logoutUrl = new URL(signOut.headers.get('location') as string)
    expect(logoutUrl.searchParams.get('post_logout_redirect_uri')).toBe(`${s.site.origin}/`)
  })

  it("back-channel logout from the OP ends the user's JWT session, not another user's; a replay is refused", async () => {
    const alice = new HttpBrowser(s.site.origin)
    const aliceAtOp = s.op.browser()
    const bob = new HttpBrowser(s.site.origin)
    await signIn(alice, aliceAtOp, 'alice')
    await signIn(bob, s.op.browser(), 'bob')
    const before = s.recorder.tokens.length

    // The user signs out at the OP itself (OP-initiated): the OP posts a logout token to the site.
    await aliceAtOp.endSession(`${s.op.issuer}/session/end`)
    expect(s.recorder.tokens.length).toBe(before + 1)
    expect(s.recorder.answers.at(-1)).toBe(200)
    expect(await alice.session()).toBeNull()
    expect(s.recorded.refusals.map((r) => r.code)).toContain('refused:session-revoked')
    expect((await bob.session())?.user?.email).toBe('bob@example.test')

    const refusalsBefore = s.recorded.refusals.length
    const replay = await postLogoutToken(s.site, s.recorder.tokens.at(-1) as string)
    expect(replay.status).toBe(400)
    expect(replay.headers.get('cache-control')).toBe('no-store')
    expect(await replay.json()).toEqual({ error: 'invalid_request' })
    expect(s.recorded.refusals.slice(refusalsBefore).map((r) => r.code)).toEqual(['refused:logout-token-replayed'])
  })

  it('a new sign-in after a back-channel logout is not refused', async () => {
    const browser = new HttpBrowser(s.site.origin)
    const opBrowser = s.op.browser()
    await signIn(browser, opBrowser, 'alice')
    await opBrowser.endSession(`${s.op.issuer}/session/end`)
    expect(await browser.session()).toBeNull()
    await signIn(browser, opBrowser, 'alice')
    expect((await browser.session())?.user?.email).toBe('alice@example.test')
  })

  it('refuses a logout token signed with another key, and one that breaks a claim rule', async () => {
    const browser = new HttpBrowser(s.site.origin)
    await signIn(browser, s.op.browser(), 'alice')
    const claims = {
      iss: s.op.issuer,
      aud: 'app',
      sub: 'alice',
      jti: `forged-${Date.now()}`,
      events: { [logoutEvent]: {} },
    }
    // Another key under the OP's key id: only the signature gives it away.
    const { privateKey } = await generateKeyPair('RS256')
    const forged = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: 'op-rs256', typ: 'logout+jwt' })
      .setIssuedAt()
      .setExpirationTime('2m')
      .sign(privateKey)
    const now = Math.floor(Date.now() / 1000)
    const cases = [
      forged,
      await s.op.signJwt({ ...claims, iat: now, exp: now + 120, nonce: 'n' }),
      await s.op.signJwt({ ...claims, iat: now, exp: now + 120, events: {} }),
      await s.op.signJwt({ ...claims, iat: now - 3600, exp: now + 120 }),
      await s.op.signJwt({ ...claims, iat: now, exp: now + 120, aud: 'someone-else' }),
      await s.op.signJwt({ ...claims, iat: now, exp: now + 120, jti: undefined }),
      'not-a-jwt',
    ]
    for (const token of cases) {
      const before = s.recorded.refusals.length
      const answer = await postLogoutToken(s.site, token)
      expect(answer.status).toBe(400)
      expect(await answer.json()).toEqual({ error: 'invalid_request' })
      const logged = s.recorded.refusals.slice(before)
      expect(logged.map((r) => r.code)).toEqual(['refused:logout-token'])
      expect(JSON.stringify(logged)).not.toContain(token)
    }
    expect((await browser.session())?.user?.email).toBe('alice@example.test')
    // The same claims, signed by the OP's real key, are accepted: the refusals above were the key and the rules.
    const genuine = await s.op.signJwt({ ...claims, iat: now, exp: now + 120 })
    expect((await postLogoutToken(s.site, genuine)).status).toBe(200)
    expect(await browser.session()).toBeNull()
  })
})

describe('federated logout, when the logout store fails', () => {
  let s: MemoryLogoutSite
  beforeAll(async () => {
    s = await startMemoryLogoutSite('jwt')
  })
  afterAll(async () => {
    await s?.close()
  })

  it('answers 400 invalid_request to a genuine logout token when the store cannot be reached, and logs the error', async () => {
    const dead = unreachableRedis()
    try {
      const config = testConfig({
        backchannelLogout: { store: new RedisLogoutStore(dead) },
        providers: [
          OIDC({
            id: 'idp',
            name: 'IdP',
            issuer: s.op.issuer,
            clientId: 'app',
            clientSecret: 'app-secret',
            backchannelLogout: true,
          }),
        ],
      })
      const now = Math.floor(Date.now() / 1000)
      const token = await s.op.signJwt({
        iss: s.op.issuer,
        aud: 'app',
        sub: 'alice',
        iat: now,
        exp: now + 120,
        jti: `dead-store-${now}`,
        events: { [logoutEvent]: {} },
      })
      const answer = await send(config, '/auth/backchannel-logout/idp', { form: { logout_token: token } })
      expect(answer.status).toBe(400)
      expect(answer.headers.get('cache-control')).toBe('no-store')
      expect(await answer.json()).toEqual({ error: 'invalid_request' })
      // Not a refusal of the token: the logout could not happen, which the log says once as an error.
      expect(config.recorded.refusals).toEqual([])
      expect(config.recorded.errors.map((e) => e.message)).toEqual(['back-channel logout could not end the sessions'])
      expect(JSON.stringify(config.recorded.errors.map((e) => e.cause))).not.toContain(token)
    } finally {
      dead.disconnect()
    }
  })
})

describe('federated logout, database sessions (memory adapter)', () => {
  let s: MemoryLogoutSite
  beforeAll(async () => {
    s = await startMemoryLogoutSite('database')
  })
  afterAll(async () => {
    await s?.close()
  })

  it("back-channel logout from the OP deletes the user's database session rows", async () => {
    const alice = new HttpBrowser(s.site.origin)
    const aliceAtOp = s.op.browser()
    const bob = new HttpBrowser(s.site.origin)
    await signIn(alice, aliceAtOp, 'alice')
    await signIn(bob, s.op.browser(), 'bob')
    expect(s.memory.sessions.size).toBe(2)
    const aliceToken = alice.jar.cookies.get('authjs.session-token') as string
    expect(s.memory.sessions.has(aliceToken)).toBe(true)

    await aliceAtOp.endSession(`${s.op.issuer}/session/end`)
    expect(s.recorder.answers.at(-1)).toBe(200)
    expect(s.memory.sessions.has(aliceToken)).toBe(false)
    expect(s.memory.sessions.size).toBe(1)
    expect(await alice.session()).toBeNull()
    expect((await bob.session())?.user?.email).toBe('bob@example.test')

    const replay = await postLogoutToken(s.site, s.recorder.tokens.at(-1) as string)
    expect(replay.status).toBe(400)
  })

  it("sign-out naming the provider ends the OP session too, with the account row's ID token as the hint", async () => {
    const browser = new HttpBrowser(s.site.origin)
    const opBrowser = s.op.browser()
    await signIn(browser, opBrowser, 'alice')
    const csrfToken = await browser.csrfToken()
    const signOut = await browser.request('/auth/signout', {
      form: { csrfToken, callbackUrl: '/signed-out', provider: 'idp' },
    })
    const logoutUrl = new URL(signOut.headers.get('location') as string)
    expect(logoutUrl.searchParams.get('client_id')).toBe('app')
    // The hint is the ID token of the signed-out user's own account row at this provider.
    const hint = logoutUrl.searchParams.get('id_token_hint')
    const account = [...s.memory.accounts.values()].find((candidate) => candidate.id_token === hint)
    expect(hint?.split('.')).toHaveLength(3)
    expect(account).toMatchObject({ provider: 'idp', providerAccountId: decodeJwt(hint as string).sub })
    expect(await opBrowser.endSession(logoutUrl)).toEqual(new URL(`${s.site.origin}/signed-out`))
    expect(await opBrowser.authorize(await startSignIn(browser))).toEqual({ prompt: 'login' })
  })
})

describe('federated logout, when the provider cannot be reached or the config is wrong', () => {
  it('signs out locally and goes to the callback URL when the provider logout URL cannot be built', async () => {
    // A JWT session from a provider whose issuer does not answer (discovery fails at sign-out).
    const config = testConfig({
      providers: [
        OIDC({
          id: 'down',
          name: 'Down',
          issuer: 'http://127.0.0.1:9/nowhere',
          clientId: 'a',
          clientSecret: 'b',
          endSessionAtProvider: true,
        }),
      ],
      providerTimeout: 1000,
    })
    const now = Math.floor(Date.now() / 1000)
    const token = await encode({
      token: {
        sub: 'alice',
        email: 'alice@example.test',
        iat: now,
        exp: now + 3600,
        'authchart:op': { p: 'down', sub: 'alice', idt: 'x.y.z', at: Date.now() },
      },
      secret,
      salt: 'authjs.session-token',
    })
    const jar = new CookieJar()
    jar.cookies.set('authjs.session-token', token)
    const signOut = await send(config, '/auth/signout', {
      jar,
      form: { csrfToken: await csrfToken(config, jar), callbackUrl: '/bye' },
    })
    expect(signOut.status).toBe(302)
    expect(signOut.headers.get('location')).toBe(`${origin}/bye`)
    expect(jar.cookies.has('authjs.session-token')).toBe(false)
    expect(config.recorded.errors.map((e) => e.name)).toContain('OAuthSignInError')
  })

  it('answers 400 invalid_request when back-channel logout is not configured or the provider did not opt in', async () => {
    const providers = () => [
      OIDC({ id: 'idp', name: 'IdP', issuer: 'http://127.0.0.1:9', clientId: 'a', clientSecret: 'b' }),
    ]
    const plain = testConfig({ providers: providers() })
    const notOptedIn = testConfig({ providers: providers(), backchannelLogout: { store: new MemoryLogoutStore() } })
    for (const config of [plain, notOptedIn]) {
      const answer = await send(config, '/auth/backchannel-logout/idp', { form: { logout_token: 'a.b.c' } })
      expect(answer.status).toBe(400)
      expect(answer.headers.get('cache-control')).toBe('no-store')
      expect(await answer.json()).toEqual({ error: 'invalid_request' })
      expect(config.recorded.refusals.map((r) => r.code)).toEqual(['refused:logout-token'])
    }
  })

  it('refuses a missing or oversized logout_token before anything is fetched from the provider', async () => {
    const config = testConfig({
      backchannelLogout: { store: new MemoryLogoutStore() },
      providerTimeout: 1000,
      providers: [
        OIDC({
          id: 'idp',
          name: 'IdP',
          issuer: 'http://127.0.0.1:9',
          clientId: 'a',
          clientSecret: 'b',
          backchannelLogout: true,
        }),
      ],
    })
    const forms: Array<Record<string, string>> = [
      {},
      { logout_token: '' },
      { logout_token: 'a'.repeat(16_385) },
      { logout_token: 'a'.repeat(16_384) },
    ]
    for (const form of forms) {
      const answer = await send(config, '/auth/backchannel-logout/idp', { form })
      expect(answer.status).toBe(400)
      expect(await answer.json()).toEqual({ error: 'invalid_request' })
    }
    expect(config.recorded.refusals.map((r) => [r.code, r.detail.reason])).toEqual([
      ['refused:logout-token', 'no usable logout_token parameter'],
      ['refused:logout-token', 'no usable logout_token parameter'],
      ['refused:logout-token', 'no usable logout_token parameter'],
      // At the limit the token is taken on to verification, which needs the provider's metadata first.
      ['refused:logout-token', 'provider discovery failed'],
    ])
  })

  it('answers 503 for a JWT session read while the logout store is unreachable, never a session', async () => {
    const dead = unreachableRedis()
    try {
      const config = testConfig({
        providers: [OIDC({ id: 'idp', name: 'IdP', issuer: 'http://127.0.0.1:9', clientId: 'a', clientSecret: 'b' })],
        backchannelLogout: { store: new RedisLogoutStore(dead) },
      })
      const now = Math.floor(Date.now() / 1000)
      const jar = new CookieJar()
      jar.cookies.set(
        'authjs.session-token',
        await encode({
          token: {
            sub: 'alice',
            iat: now,
            exp: now + 3600,
            'authchart:op': { p: 'idp', sub: 'alice', at: Date.now() },
          },
          secret,
          salt: 'authjs.session-token',
        }),
      )
      const answer = await send(config, '/auth/session', { jar })
      expect(answer.status).toBe(503)
      expect(answer.headers.get('retry-after')).toBe('5')
      expect(config.recorded.errors.map((e) => e.name)).toContain('FlowStoreUnavailable')
    } finally {
      dead.disconnect()
    }
  })

  it('refuses a config whose backchannelLogout has no store', async () => {
    const config = testConfig({ backchannelLogout: { store: {} as never } })
    const answer = await send(config, '/auth/session')
    expect(answer.status).toBe(500)
  })
})

/**
 * A logout that fails after its token id was claimed must stay retryable: OPs retry a logout that got an error answer,
 * and that retry is the same token. The failures are injected (a deleteSession that throws once, a revocation that
 * throws once) because a database or Redis that fails at exactly that step cannot be arranged otherwise.
 */
describe('federated logout, a failure halfway and the provider retrying', () => {
  it('database sessions: the retry of the same token deletes the session the failed attempt could not', async () => {
    const memory = createMemoryStore()
    const adapter = MemoryAdapter(memory)
    let failures = 1
    const failingOnce: Adapter = {
      ...adapter,
      deleteSession: async (sessionToken: string) => {
        if (failures-- > 0) throw new Error('database unavailable (injected)')
        return (await adapter.deleteSession?.(sessionToken)) ?? null
      },
    }
    const s = await startLogoutSite({ strategy: 'database', adapter: failingOnce })
    try {
      const alice = new HttpBrowser(s.site.origin)
      const aliceAtOp = s.op.browser()
      await signIn(alice, aliceAtOp, 'alice')
      await aliceAtOp.endSession(`${s.op.issuer}/session/end`)
      expect(s.recorder.answers.at(-1)).toBe(400)
      expect(memory.sessions.size).toBe(1)
      // Logged once, by the adapter wrapper where it failed, not again by the logout.
      expect(s.recorded.errors.map((e) => e.name)).toEqual(['AdapterError'])
      const retry = await postLogoutToken(s.site, s.recorder.tokens.at(-1) as string)
      expect(retry.status).toBe(200)
      expect(memory.sessions.size).toBe(0)
      expect(await alice.session()).toBeNull()
      expect(s.recorded.refusals).toEqual([])
      // Once done, the token is spent.
      expect((await postLogoutToken(s.site, s.recorder.tokens.at(-1) as string)).status).toBe(400)
    } finally {
      await s.close()
    }
  })

  it('JWT sessions: the retry of the same token revokes the session the failed attempt could not', async () => {
    class FailingOnce extends MemoryLogoutStore {
      failures = 1
      override async revoke(keys: string[], atMs: number, ttlSeconds: number): Promise<void> {
        if (this.failures-- > 0) throw new Error('store unavailable (injected)')
        return super.revoke(keys, atMs, ttlSeconds)
      }
    }
    const s = await startLogoutSite({ strategy: 'jwt', config: { backchannelLogout: { store: new FailingOnce() } } })
    try {
      const alice = new HttpBrowser(s.site.origin)
      const aliceAtOp = s.op.browser()
      await signIn(alice, aliceAtOp, 'alice')
      await aliceAtOp.endSession(`${s.op.issuer}/session/end`)
      expect(s.recorder.answers.at(-1)).toBe(400)
      expect((await alice.session())?.user?.email).toBe('alice@example.test')
      expect((await postLogoutToken(s.site, s.recorder.tokens.at(-1) as string)).status).toBe(200)
      expect(await alice.session()).toBeNull()
      expect((await postLogoutToken(s.site, s.recorder.tokens.at(-1) as string)).status).toBe(400)
    } finally {
      await s.close()
    }
  })
})
