/**
 * Auth.js compatibility of what happens once a user is known, for every sign-in method, on the first and the second
 * sign-in: the `jwt` callback's `trigger` ("signUp" then "signIn") and `isNewUser`, the `pages.newUser` redirect of a
 * sign-up, and the `signIn`, `createUser`, `updateUser` and `linkAccount` events with their fields. Each method runs
 * through `Auth()` on the memory adapter and on PostgreSQL (the Kysely adapter after `migrate`), OAuth against the
 * real oidc-provider, passkeys with the software authenticator.
 *
 * Auth.js's contract (packages/core/src/lib/actions/callback): credentials never creates a user, so its `jwt`
 * callback always gets `trigger: "signIn"` with `isNewUser: false`, and its `signIn` event carries no `isNewUser`;
 * the e-mail, OAuth and WebAuthn methods report a user created in this sign-in as a sign-up.
 */
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryStore, MemoryAdapter } from '../../adapters/memory.js'
import { KyselyAdapter, migrate } from '../../adapters/sql/index.js'
import Email from '../../src/providers/email.js'
import OIDC from '../../src/providers/oidc.js'
import Passkey from '../../src/providers/passkey.js'
import type { Adapter } from '../../src/types/adapters.js'
import type { AuthConfig } from '../../src/types/index.js'
import { CookieJar, csrfToken, origin, send, signIn, testConfig, testCredentials } from '../support/auth-harness.js'
import { confirmationFields } from '../support/http-site.js'
import { startOidcProvider, type RunningOidcProvider } from '../support/oidc-provider.js'
import { createScratchPostgresSchema, describeWithService, probePostgres } from '../support/services.js'
import { SoftAuthenticator } from '../support/soft-authenticator.js'

/** What the app's callbacks and events saw, in order. */
type Seen =
  | { kind: 'jwt'; trigger: unknown; isNewUser: unknown; hasUser: boolean; account: unknown; hasProfile: boolean }
  | { kind: 'createUser'; user: Record<string, unknown> }
  | { kind: 'updateUser'; user: Record<string, unknown> }
  | { kind: 'linkAccount'; user: Record<string, unknown>; account: Record<string, unknown>; hasProfile: boolean }
  | { kind: 'signIn'; keys: string[]; user: Record<string, unknown>; account: unknown; isNewUser: unknown }

interface Method {
  name: string
  /** Signs in once in a fresh browser; answers the callback's Location. */
  signIn(config: AuthConfig): Promise<string>
  /** Where a returning user lands. */
  landing: string
}

let op: RunningOidcProvider
const links: string[] = []

beforeAll(async () => {
  op = await startOidcProvider({
    clients: [{ client_id: 'app', client_secret: 's3cret', redirect_uris: [`${origin}/auth/callback/idp`] }],
  })
})
afterAll(async () => {
  await op?.close()
})

function configFor(adapter: Adapter, seen: Seen[]): AuthConfig {
  const asRecord = (value: unknown) => ({ ...(value as Record<string, unknown>) })
  return testConfig({
    // The e-mail link's origin is configured, never taken from the request.
    url: `${origin}/auth`,
    adapter,
    session: { strategy: 'jwt' },
    pages: { newUser: '/welcome' },
    experimental: { enableWebAuthn: true },
    providers: [
      testCredentials(),
      Email({
        server: 'smtp://unused.invalid',
        from: 'login@site.test',
        // The app's own delivery: the link is kept for the test to follow.
        sendVerificationRequest: ({ url }) => {
          links.push(url)
        },
      }),
      OIDC({ id: 'idp', name: 'IdP', issuer: op.issuer, clientId: 'app', clientSecret: 's3cret' }),
      Passkey(),
    ],
    callbacks: {
      jwt: ({ token, trigger, isNewUser, user, account, profile }) => {
        seen.push({
          kind: 'jwt',
          trigger,
          isNewUser,
          hasUser: user !== undefined,
          account: account && { provider: account.provider, type: account.type },
          hasProfile: profile !== undefined,
        })
        return token
      },
    },
    events: {
      createUser: ({ user }) => {
        seen.push({ kind: 'createUser', user: asRecord(user) })
      },
      updateUser: ({ user }) => {
        seen.push({ kind: 'updateUser', user: asRecord(user) })
      },
      linkAccount: ({ user, account, profile }) => {
        seen.push({ kind: 'linkAccount', user: asRecord(user), account: asRecord(account), hasProfile: !!profile })
      },
      signIn: (message) => {
        seen.push({
          kind: 'signIn',
          keys: Object.keys(message).sort(),
          user: asRecord(message.user),
          account: message.account && { provider: message.account.provider, type: message.account.type },
          isNewUser: message.isNewUser,
        })
      },
    },
  })
}

const credentials: Method = {
  name: 'credentials',
  landing: `${origin}/home`,
  async signIn(config) {
    const response = await signIn(config, new CookieJar(), 'ada', 'lovelace', { callbackUrl: '/home' })
    return response.headers.get('location') ?? ''
  },
}

const email: Method = {
  name: 'email',
  landing: `${origin}/home`,
  async signIn(config) {
    const jar = new CookieJar()
    const before = links.length
    await send(config, '/auth/signin/email', {
      jar,
      form: { email: 'grace@example.com', csrfToken: await csrfToken(config, jar), callbackUrl: '/home' },
    })
    const link = links[before]
    expect(link).toBeDefined()
    const page = await send(config, new URL(link).pathname + new URL(link).search, { jar })
    const html = await page.text()
    const action = (/<form action="([^"]+)"/.exec(html)?.[1] as string).replace(/&amp;/g, '&')
    const confirmed = await send(config, new URL(action, origin).pathname + new URL(action, origin).search, {
      jar,
      form: confirmationFields(html),
    })
    return confirmed.headers.get('location') ?? ''
  },
}

const oauth: Method = {
  name: 'oauth',
  landing: `${origin}/home`,
  async signIn(config) {
    const jar = new CookieJar()
    const start = await send(config, '/auth/signin/idp', {
      jar,
      form: { csrfToken: await csrfToken(config, jar), callbackUrl: '/home' },
    })
    const result = await op.signInAs(start.headers.get('location') as string, 'alice')
    if (result.mode !== 'query') throw new Error('expected a query response')
    const callback = await send(config, `${result.callbackUrl.pathname}${result.callbackUrl.search}`, { jar })
    return callback.headers.get('location') ?? ''
  },
}

/**
 * One passkey ceremony in a fresh browser: the options for `query`, the soft authenticator's answer, the callback.
 * Answers the callback's Location.
 */
async function passkeyCeremony(
  config: AuthConfig,
  authenticator: SoftAuthenticator,
  action: 'register' | 'authenticate',
  query = '',
): Promise<string> {
  const jar = new CookieJar()
  const options = await send(config, `/auth/webauthn-options/passkey${query}`, { jar })
  const body = (await options.json()) as { action?: string; options?: unknown }
  expect(body.action).toBe(action)
  const data =
    action === 'register' ? authenticator.create(body.options as never) : authenticator.get(body.options as never)
  const callback = await send(config, '/auth/callback/passkey', {
    jar,
    form: { action, data: JSON.stringify(data), csrfToken: await csrfToken(config, jar), callbackUrl: '/home' },
  })
  return callback.headers.get('location') ?? ''
}

const welcome = `${origin}/welcome?callbackUrl=${encodeURIComponent(`${origin}/home`)}`

function kinds(seen: Seen[]): string[] {
  return seen.map((entry) => entry.kind)
}

/** The test of one method on one adapter: the first sign-in, then the second, each with what Auth.js reports. */
function compatTests(openAdapter: () => Promise<{ adapter: Adapter; close(): Promise<void> }>) {
  it('credentials: never a sign-up (Auth.js creates no user for credentials)', async () => {
    const { adapter, close } = await openAdapter()
    try {
      for (let round = 0; round < 2; round++) {
        const seen: Seen[] = []
        const config = configFor(adapter, seen)
        expect(await credentials.signIn(config)).toBe(credentials.landing)
        expect(kinds(seen)).toEqual(['jwt', 'signIn'])
        expect(seen[0]).toEqual({
          kind: 'jwt',
          trigger: 'signIn',
          isNewUser: false,
          hasUser: true,
          account: { provider: 'credentials', type: 'credentials' },
          hasProfile: false,
        })
        expect(seen[1]).toMatchObject({
          kind: 'signIn',
          keys: ['account', 'user'],
          user: { id: 'u-ada', email: 'ada@example.com' },
          account: { provider: 'credentials', type: 'credentials' },
        })
      }
    } finally {
      await close()
    }
  })

  it('email: the first confirmed link is a sign-up (createUser, signUp, newUser page); the second is a sign-in', async () => {
    const { adapter, close } = await openAdapter()
    try {
      const first: Seen[] = []
      expect(await email.signIn(configFor(adapter, first))).toBe(welcome)
      expect(kinds(first)).toEqual(['createUser', 'jwt', 'signIn'])
      const created = (first[0] as { user: Record<string, unknown> }).user
      expect(created).toMatchObject({ email: 'grace@example.com', emailVerified: expect.any(Date) })
      expect(first[1]).toMatchObject({
        trigger: 'signUp',
        isNewUser: true,
        hasUser: true,
        account: { provider: 'email', type: 'email' },
      })
      expect(first[2]).toMatchObject({
        keys: ['account', 'isNewUser', 'user'],
        user: { id: created.id, email: 'grace@example.com' },
        account: { provider: 'email', type: 'email' },
        isNewUser: true,
      })

      const second: Seen[] = []
      expect(await email.signIn(configFor(adapter, second))).toBe(email.landing)
      expect(kinds(second)).toEqual(['updateUser', 'jwt', 'signIn'])
      expect(second[0]).toMatchObject({ user: { id: created.id, email: 'grace@example.com' } })
      expect(second[1]).toMatchObject({ trigger: 'signIn', isNewUser: false, hasUser: true })
      expect(second[2]).toMatchObject({ keys: ['account', 'isNewUser', 'user'], isNewUser: false })
    } finally {
      await close()
    }
  })

  it('oauth: the first sign-in creates and links (createUser, linkAccount, signUp, newUser page); the second does not', async () => {
    const { adapter, close } = await openAdapter()
    try {
      const first: Seen[] = []
      expect(await oauth.signIn(configFor(adapter, first))).toBe(welcome)
      expect(kinds(first)).toEqual(['createUser', 'linkAccount', 'jwt', 'signIn'])
      const created = (first[0] as { user: Record<string, unknown> }).user
      expect(created).toMatchObject({ email: 'alice@example.test', emailVerified: null })
      expect(first[1]).toMatchObject({
        user: { id: created.id },
        account: { provider: 'idp', type: 'oidc', providerAccountId: 'alice' },
        hasProfile: true,
      })
      expect(first[2]).toMatchObject({
        trigger: 'signUp',
        isNewUser: true,
        hasUser: true,
        account: { provider: 'idp', type: 'oidc' },
        hasProfile: true,
      })
      expect(first[3]).toMatchObject({
        keys: ['account', 'isNewUser', 'profile', 'user'],
        user: { id: created.id },
        account: { provider: 'idp', type: 'oidc' },
        isNewUser: true,
      })

      const second: Seen[] = []
      expect(await oauth.signIn(configFor(adapter, second))).toBe(oauth.landing)
      expect(kinds(second)).toEqual(['jwt', 'signIn'])
      expect(second[0]).toMatchObject({ trigger: 'signIn', isNewUser: false, hasProfile: true })
      expect(second[1]).toMatchObject({
        keys: ['account', 'isNewUser', 'profile', 'user'],
        user: { id: created.id },
        isNewUser: false,
      })
    } finally {
      await close()
    }
  })

  it('passkey: the first sign-in registers (createUser, linkAccount, signUp, newUser page); the second signs in', async () => {
    const { adapter, close } = await openAdapter()
    try {
      const authenticator = new SoftAuthenticator(origin)
      const first: Seen[] = []
      const firstConfig = configFor(adapter, first)
      expect(await passkeyCeremony(firstConfig, authenticator, 'register', '?email=hopper%40example.com')).toBe(welcome)
      expect(kinds(first)).toEqual(['createUser', 'linkAccount', 'jwt', 'signIn'])
      const created = (first[0] as { user: Record<string, unknown> }).user
      expect(created).toMatchObject({ email: 'hopper@example.com', emailVerified: null })
      const credentialId = Buffer.from(authenticator.credentials[0]?.id ?? []).toString('base64')
      expect(first[1]).toMatchObject({
        user: { id: created.id, email: 'hopper@example.com' },
        account: { provider: 'passkey', type: 'webauthn', providerAccountId: credentialId },
        hasProfile: true,
      })
      expect(first[2]).toEqual({
        kind: 'jwt',
        trigger: 'signUp',
        isNewUser: true,
        hasUser: true,
        account: { provider: 'passkey', type: 'webauthn' },
        hasProfile: false,
      })
      expect(first[3]).toMatchObject({
        keys: ['account', 'isNewUser', 'user'],
        user: { id: created.id, email: 'hopper@example.com' },
        account: { provider: 'passkey', type: 'webauthn' },
        isNewUser: true,
      })

      const second: Seen[] = []
      expect(await passkeyCeremony(configFor(adapter, second), authenticator, 'authenticate')).toBe(`${origin}/home`)
      expect(kinds(second)).toEqual(['jwt', 'signIn'])
      expect(second[0]).toEqual({
        kind: 'jwt',
        trigger: 'signIn',
        isNewUser: false,
        hasUser: true,
        account: { provider: 'passkey', type: 'webauthn' },
        hasProfile: false,
      })
      expect(second[1]).toMatchObject({
        keys: ['account', 'isNewUser', 'user'],
        user: { id: created.id, email: 'hopper@example.com' },
        account: { provider: 'passkey', type: 'webauthn' },
        isNewUser: false,
      })
    } finally {
      await close()
    }
  })
}

describe('sign-in completion, Auth.js-compatible: memory adapter', () => {
  compatTests(async () => ({ adapter: MemoryAdapter(createMemoryStore()), close: async () => {} }))
})

await describeWithService('sign-in completion, Auth.js-compatible: PostgreSQL', probePostgres, () => {
  compatTests(async () => {
    const scratch = await createScratchPostgresSchema()
    const db = new Kysely<unknown>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: scratch.url, max: 4 }) }),
    })
    await migrate(db)
    return {
      adapter: KyselyAdapter(db),
      async close() {
        await db.destroy()
        await scratch.drop()
      },
    }
  })
})
