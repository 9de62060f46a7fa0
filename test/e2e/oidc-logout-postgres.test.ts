/**
 * Back-channel logout ending database sessions stored in PostgreSQL through the Kysely adapter (after `migrate`),
 * against a real `oidc-provider` on loopback: the OP's logout token deletes the signed-out user's session rows and
 * no one else's, the `signOut` event gets each deleted row, and the same token posted again is refused. The rows are
 * read with plain SQL through the driver, never through the adapter.
 */
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { KyselyAdapter, migrate } from '../../adapters/sql/index.js'
import type { AdapterSession } from '../../src/types/adapters.js'
import { HttpBrowser } from '../support/http-site.js'
import { postLogoutToken, signIn, startLogoutSite, type LogoutSite } from '../support/logout-site.js'
import {
  createScratchPostgresSchema,
  describeWithService,
  probePostgres,
  type ScratchPostgresSchema,
} from '../support/services.js'

const cookieName = 'authjs.session-token'

await describeWithService('postgres', probePostgres, () => {
  let scratch: ScratchPostgresSchema
  let db: Kysely<unknown>
  let raw: pg.Pool
  let s: LogoutSite
  const signedOut: Array<AdapterSession | null | undefined> = []

  beforeAll(async () => {
    scratch = await createScratchPostgresSchema()
    db = new Kysely<unknown>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: scratch.url, max: 4 }) }),
    })
    await migrate(db)
    raw = new pg.Pool({ connectionString: scratch.url, max: 2 })
    s = await startLogoutSite({
      strategy: 'database',
      adapter: KyselyAdapter(db),
      config: {
        events: {
          signOut: (message) => {
            if ('session' in message) signedOut.push(message.session)
          },
        },
      },
    })
  })
  afterAll(async () => {
    await s?.close()
    await raw?.end()
    await db?.destroy()
    await scratch?.drop()
  })

  /** The session rows as PostgreSQL holds them: token → user id. */
  async function sessionRows(): Promise<Map<string, string>> {
    const { rows } = await raw.query<{ sessionToken: string; userId: string }>(
      'select "sessionToken", "userId" from "Session"',
    )
    return new Map(rows.map((row) => [row.sessionToken, String(row.userId)]))
  }

  it("deletes the user's session rows in PostgreSQL, not another user's; the replayed token is refused", async () => {
    const alice = new HttpBrowser(s.site.origin)
    const aliceAtOp = s.op.browser()
    const bob = new HttpBrowser(s.site.origin)
    await signIn(alice, aliceAtOp, 'alice')
    await signIn(bob, s.op.browser(), 'bob')
    const aliceToken = alice.jar.cookies.get(cookieName) as string
    const bobToken = bob.jar.cookies.get(cookieName) as string
    const before = await sessionRows()
    expect([...before.keys()].sort()).toEqual([aliceToken, bobToken].sort())

    // The user signs out at the OP itself: the OP posts a logout token to the site.
    await aliceAtOp.endSession(`${s.op.issuer}/session/end`)
    expect(s.recorder.answers).toEqual([200])

    const after = await sessionRows()
    expect([...after.keys()]).toEqual([bobToken])
    expect(signedOut.map((session) => session?.sessionToken)).toEqual([aliceToken])
    expect(signedOut[0]?.userId).toBe(before.get(aliceToken))
    expect(await alice.session()).toBeNull()
    expect((await bob.session())?.user?.email).toBe('bob@example.test')

    const refusalsBefore = s.recorded.refusals.length
    const replay = await postLogoutToken(s.site, s.recorder.tokens.at(-1) as string)
    expect(replay.status).toBe(400)
    expect(replay.headers.get('cache-control')).toBe('no-store')
    expect(await replay.json()).toEqual({ error: 'invalid_request' })
    expect(s.recorded.refusals.slice(refusalsBefore).map((r) => r.code)).toEqual(['refused:logout-token-replayed'])
    expect([...(await sessionRows()).keys()]).toEqual([bobToken])
    expect(signedOut).toHaveLength(1)
    expect(s.recorded.errors).toEqual([])
  })
})
