/**
 * Many first sign-ins of one new provider account at once (issue #38, point 4), against a real `oidc-provider` and
 * PostgreSQL through the Kysely adapter: 30 browsers, each with its own flow, come back from the provider as the
 * same account at the same moment. One of them creates the user; every other one must find that user and sign in
 * as it, never end on `OAuthCreateAccount` or `OAuthAccountNotLinked`. The rows are read with plain SQL.
 */
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { KyselyAdapter, migrate } from '../../adapters/sql/index.js'
import type { Adapter } from '../../src/types/adapters.js'
import OIDC from '../../src/providers/oidc.js'
import type { AuthConfig } from '../../src/types/index.js'
import { CookieJar, csrfToken, origin, send, testConfig } from '../support/auth-harness.js'
import { startOidcProvider, type RunningOidcProvider } from '../support/oidc-provider.js'
import {
  createScratchPostgresSchema,
  describeWithService,
  probePostgres,
  type ScratchPostgresSchema,
} from '../support/services.js'

const racers = 30

/** A promise and the function that settles it. */
function opened(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {}
  const promise = new Promise<void>((settle) => {
    resolve = settle
  })
  return { promise, resolve }
}

await describeWithService('postgres', probePostgres, () => {
  let op: RunningOidcProvider
  let scratch: ScratchPostgresSchema
  let db: Kysely<unknown>
  let raw: pg.Pool

  beforeAll(async () => {
    op = await startOidcProvider({
      clients: [{ client_id: 'app', client_secret: 's3cret', redirect_uris: [`${origin}/auth/callback/idp`] }],
      accounts: {
        // The usual case: the address is unique in the User table, so the second insert of it fails.
        'with-address': { name: 'Rae Racer', email: 'rae@race.test', email_verified: true },
        // No address: every racer can insert its user; the unique account key is what one of them trips over.
        'without-address': { name: 'Anonymous Racer' },
        'between-writes': { name: 'Wes Between', email: 'wes@race.test', email_verified: true },
      },
    })
    scratch = await createScratchPostgresSchema()
    // A pool smaller than the crowd, as a site's is: the racers queue for connections and interleave.
    db = new Kysely<unknown>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: scratch.url, max: 10 }) }),
    })
    await migrate(db)
    raw = new pg.Pool({ connectionString: scratch.url, max: 2 })
  })
  afterAll(async () => {
    await op?.close()
    await raw?.end()
    await db?.destroy()
    await scratch?.drop()
  })

  /** Starts a sign-in in a browser of its own and signs in at the provider; returns the callback path. */
  async function toCallback(cfg: AuthConfig, jar: CookieJar, account: string): Promise<string> {
    const start = await send(cfg, '/auth/signin/idp', {
      jar,
      form: { csrfToken: await csrfToken(cfg, jar), callbackUrl: '/home' },
    })
    const result = await op.signInAs(start.headers.get('location') ?? '', account)
    if (result.mode !== 'query') throw new Error('expected a query response')
    return `${result.callbackUrl.pathname}${result.callbackUrl.search}`
  }

  async function rows(account: string) {
    const accounts = await raw.query<{ userId: string }>(
      'select "userId" from "Account" where provider = $1 and "providerAccountId" = $2',
      ['idp', account],
    )
    const users = await raw.query<{ id: string; email: string | null }>(
      'select id, email from "User" where name = (select name from "User" where id = $1)',
      [accounts.rows[0]?.userId ?? ''],
    )
    const sessions = await raw.query<{ userId: string }>('select "userId" from "Session"')
    return { accounts: accounts.rows, users: users.rows, sessions: sessions.rows }
  }

  describe.each(['with-address', 'without-address'])('%s', (account) => {
    it(`${racers} first sign-ins of one new account at once: all signed in as one user, one user row, one account row`, async () => {
      await raw.query('delete from "Session"')
      const created: Array<string | undefined> = []
      const signIns: Array<{ userId: string | undefined; isNewUser: boolean | undefined }> = []
      const cfg = testConfig({
        adapter: KyselyAdapter(db),
        session: { strategy: 'database' },
        providers: [OIDC({ id: 'idp', name: 'IdP', issuer: op.issuer, clientId: 'app', clientSecret: 's3cret' })],
        events: {
          createUser: ({ user }) => {
            created.push(user.id)
          },
          signIn: ({ user, isNewUser }) => {
            signIns.push({ userId: user.id, isNewUser })
          },
        },
      })
      const jars = Array.from({ length: racers }, () => new CookieJar())
      const callbacks = await Promise.all(jars.map((jar) => toCallback(cfg, jar, account)))

      // Every browser comes back at once.
      const answers = await Promise.all(callbacks.map((path, i) => send(cfg, path, { jar: jars[i] })))

      const outcomes = answers.map((answer) => `${answer.status} ${answer.headers.get('location') ?? ''}`)
      expect(outcomes).toEqual(Array.from({ length: racers }, () => `302 ${origin}/home`))
      for (const jar of jars) expect(jar.cookies.get('authjs.session-token')).toEqual(expect.any(String))

      const { accounts, users, sessions } = await rows(account)
      expect(accounts).toHaveLength(1)
      const userId = accounts[0].userId
      expect(users.map((user) => user.id)).toEqual([userId])
      expect(sessions.map((session) => session.userId)).toEqual(Array.from({ length: racers }, () => userId))
      // One sign-up, announced once; every other browser signed in to the user it made.
      expect(created).toEqual([userId])
      expect(signIns.filter((signIn) => signIn.isNewUser)).toEqual([{ userId, isNewUser: true }])
      expect(new Set(signIns.map((signIn) => signIn.userId))).toEqual(new Set([userId]))
      expect(signIns).toHaveLength(racers)
    }, 120_000)
  })
  it("a sign-in that arrives between the first one's two writes (user made, account not yet linked) signs in too", async () => {
    const base = KyselyAdapter(db)
    const userMade = opened()
    const linkMayGo = opened()
    // The first sign-in's user is written at once; its account link waits until the second sign-in has looked.
    let links = 0
    const adapter: Adapter = {
      ...base,
      createUser: async (user) => {
        const made = await base.createUser(user)
        userMade.resolve()
        return made
      },
      linkAccount: async (account) => {
        if (links++ === 0) await linkMayGo.promise
        await base.linkAccount(account)
      },
    }
    const cfg = testConfig({
      adapter,
      session: { strategy: 'database' },
      providers: [OIDC({ id: 'idp', name: 'IdP', issuer: op.issuer, clientId: 'app', clientSecret: 's3cret' })],
    })
    const [first, second] = [new CookieJar(), new CookieJar()]
    const [firstPath, secondPath] = await Promise.all([
      toCallback(cfg, first, 'between-writes'),
      toCallback(cfg, second, 'between-writes'),
    ])
    const firstAnswer = send(cfg, firstPath, { jar: first })
    await userMade.promise
    // The second finds the address taken and no account: without a wait it would be told to use another account.
    const secondAnswer = send(cfg, secondPath, { jar: second })
    setTimeout(() => linkMayGo.resolve(), 200)
    const answers = await Promise.all([firstAnswer, secondAnswer])

    expect(answers.map((answer) => `${answer.status} ${answer.headers.get('location') ?? ''}`)).toEqual([
      `302 ${origin}/home`,
      `302 ${origin}/home`,
    ])
    const { accounts, users } = await rows('between-writes')
    expect(accounts).toHaveLength(1)
    expect(users.map((user) => user.id)).toEqual([accounts[0].userId])
    expect(cfg.recorded.errors).toEqual([])
  }, 60_000)
})
