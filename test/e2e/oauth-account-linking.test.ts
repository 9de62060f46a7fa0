/**
 * OAuth sign-in with an adapter, against the real oidc-provider: new users are created and linked, known accounts
 * sign in, a signed-in user adds a provider, and an e-mail owned by another user is not linked unless the provider
 * allows dangerous e-mail linking. Both session strategies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryStore, MemoryAdapter } from '../../adapters/memory.js'
import type { Adapter } from '../../src/types/adapters.js'
import OIDC from '../../src/providers/oidc.js'
import type { AuthConfig } from '../../src/types/index.js'
import {
  CookieJar,
  csrfToken,
  origin,
  send,
  session,
  signIn,
  testConfig,
  testCredentials,
} from '../support/auth-harness.js'
import { startOidcProvider, type RunningOidcProvider } from '../support/oidc-provider.js'
import { scalarText } from '../../src/security/scalar-text.js'

let op: RunningOidcProvider

beforeAll(async () => {
  op = await startOidcProvider({
    clients: [
      {
        client_id: 'app',
        client_secret: 's3cret',
        redirect_uris: [`${origin}/auth/callback/idp`, `${origin}/auth/callback/idp-linking`],
      },
    ],
  })
})
afterAll(async () => {
  await op?.close()
})

function config(adapter: Adapter, overrides: Partial<AuthConfig> = {}, allowDangerousEmailAccountLinking = false) {
  return testConfig({
    adapter,
    providers: [
      OIDC({ id: 'idp', name: 'IdP', issuer: op.issuer, clientId: 'app', clientSecret: 's3cret' }),
      OIDC({
        id: 'idp-linking',
        name: 'IdP (linking)',
        issuer: op.issuer,
        clientId: 'app',
        clientSecret: 's3cret',
        allowDangerousEmailAccountLinking,
      }),
      testCredentials(),
    ],
    ...overrides,
  })
}

async function oauthSignIn(cfg: AuthConfig, jar: CookieJar, account = 'alice', provider = 'idp'): Promise<Response> {
  const start = await send(cfg, `/auth/signin/${provider}`, {
    jar,
    form: { csrfToken: await csrfToken(cfg, jar), callbackUrl: '/home' },
  })
  const result = await op.signInAs(start.headers.get('location') as string, account)
  if (result.mode !== 'query') throw new Error('expected a query response')
  return send(cfg, `${result.callbackUrl.pathname}${result.callbackUrl.search}`, { jar })
}

describe.each(['jwt', 'database'] as const)('OAuth with an adapter (%s sessions)', (strategy) => {
  it('creates the user and links the account on first sign-in, with the events and the new-user page', async () => {
    const store = createMemoryStore()
    const seen: string[] = []
    const jwtTriggers: unknown[] = []
    const cfg = config(MemoryAdapter(store), {
      session: { strategy },
      pages: { newUser: '/welcome' },
      events: {
        createUser: () => {
          seen.push('createUser')
        },
        linkAccount: () => {
          seen.push('linkAccount')
        },
        signIn: (m) => {
          seen.push(`signIn:${m.isNewUser}`)
        },
      },
      callbacks: {
        jwt: ({ token, trigger }) => {
          jwtTriggers.push(trigger)
          return token
        },
      },
    })
    const jar = new CookieJar()
    const response = await oauthSignIn(cfg, jar)
    expect(response.headers.get('location')).toBe(
      `${origin}/welcome?callbackUrl=${encodeURIComponent(`${origin}/home`)}`,
    )
    expect(store.users.size).toBe(1)
    const [user] = [...store.users.values()]
    expect(user).toMatchObject({ email: 'alice@example.test', emailVerified: null })
    expect([...store.accounts.values()]).toEqual([
      expect.objectContaining({ provider: 'idp', providerAccountId: 'alice', userId: user?.id, type: 'oidc' }),
    ])
    expect(seen).toEqual(['createUser', 'linkAccount', 'signIn:true'])
    if (strategy === 'jwt') expect(jwtTriggers).toEqual(['signUp'])
    expect(await session(cfg, jar)).toMatchObject({ user: { email: 'alice@example.test' } })
  })

  it('signs a known account in without creating anything', async () => {
    const store = createMemoryStore()
    const cfg = config(MemoryAdapter(store), { session: { strategy } })
    await oauthSignIn(cfg, new CookieJar())
    const second = new CookieJar()
    const response = await oauthSignIn(cfg, second)
    expect(response.headers.get('location')).toBe(`${origin}/home`)
    expect(store.users.size).toBe(1)
    expect(store.accounts.size).toBe(1)
  })

  it('refuses to link a provider whose e-mail belongs to another user (OAuthAccountNotLinked)', async () => {
    const store = createMemoryStore()
    const adapter = MemoryAdapter(store)
    await adapter.createUser({
      id: 'existing',
      email: 'alice@example.test',
      emailVerified: null,
      name: 'Alice (password)',
    })
    const cfg = config(adapter, { session: { strategy } })
    const jar = new CookieJar()
    const response = await oauthSignIn(cfg, jar)
    expect(new URL(response.headers.get('location') as string).searchParams.get('error')).toBe('OAuthAccountNotLinked')
    expect(store.accounts.size).toBe(0)
    expect(jar.cookies.has('authjs.session-token')).toBe(false)
  })

  it('links by e-mail when the provider allows dangerous e-mail linking', async () => {
    const store = createMemoryStore()
    const adapter = MemoryAdapter(store)
    await adapter.createUser({ id: 'existing', email: 'alice@example.test', emailVerified: null })
    const cfg = config(adapter, { session: { strategy } }, true)
    await oauthSignIn(cfg, new CookieJar(), 'alice', 'idp-linking')
    expect([...store.accounts.values()]).toEqual([
      expect.objectContaining({ provider: 'idp-linking', userId: 'existing' }),
    ])
    expect(store.users.size).toBe(1)
  })

  it('links a further provider to the user who is signed in', async () => {
    const store = createMemoryStore()
    const adapter = MemoryAdapter(store)
    await adapter.createUser({ id: 'u-ada', name: 'Ada Lovelace', email: 'ada@example.com', emailVerified: null })
    const cfg = config(adapter, { session: { strategy } })
    const jar = new CookieJar()
    await signIn(cfg, jar)
    await oauthSignIn(cfg, jar, 'bob')
    expect([...store.accounts.values()]).toEqual([
      expect.objectContaining({ provider: 'idp', providerAccountId: 'bob', userId: 'u-ada' }),
    ])
    expect(store.users.size).toBe(1)
  })

  it('leaves no user behind when linking the new account fails (OAuthCreateAccount)', async () => {
    const store = createMemoryStore()
    const adapter = MemoryAdapter(store)
    const cfg = config(
      {
        ...adapter,
        linkAccount: async () => {
          throw new Error('unique constraint "Account_provider_providerAccountId_key"')
        },
      },
      { session: { strategy } },
    )
    const jar = new CookieJar()
    const response = await oauthSignIn(cfg, jar)
    expect(new URL(response.headers.get('location') as string).searchParams.get('error')).toBe('OAuthCreateAccount')
    expect(store.users.size).toBe(0)
    expect(jar.cookies.has('authjs.session-token')).toBe(false)
  })

  it('denies user creation when the app extension point says no', async () => {
    const store = createMemoryStore()
    const cfg = config(MemoryAdapter(store), {
      session: { strategy },
      flows: {
        oauth: { guards: { allowUserCreation: ({ user }) => scalarText(user.email).endsWith('@corp.example') } },
      },
    })
    const response = await oauthSignIn(cfg, new CookieJar())
    expect(new URL(response.headers.get('location') as string).searchParams.get('error')).toBe('AccessDenied')
    expect(store.users.size).toBe(0)
  })
})
