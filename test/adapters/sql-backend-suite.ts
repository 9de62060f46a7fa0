/**
 * What every SQL backend must show beyond the conformance suite: `migrate` is idempotent, fields without a column
 * are dropped rather than failing the insert, driver errors arrive as classified `AdapterError`s, and a
 * connection lost in the middle of a multi-statement write leaves nothing half-done.
 */
import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import { describe, expect, it } from 'vitest'
import { KyselyAdapter, migrate, tableNames } from '../../adapters/sql/index.js'
import { AdapterError } from '../../src/errors.js'
import { inDays, newAccount, newAuthenticator, newUser, type StoreReaders } from './conformance-fixtures.js'

/** One SQL backend, ready to use (the caller's `beforeAll` has migrated it). */
export interface SqlBackend {
  dialect: 'postgres' | 'mysql' | 'sqlite'
  db(): Kysely<unknown>
  store(): StoreReaders
  /** A second Kysely on the same database whose connection is killed right after the first query matching `trigger`. */
  openKillable(trigger: RegExp): Kysely<unknown>
}

/** Registers the SQL-only tests in the current `describe`. */
export function sqlBackendSuite(backend: SqlBackend): void {
  describe('migrate', () => {
    it('on a migrated database creates nothing and reports all five tables as existing', async () => {
      const report = await migrate(backend.db())
      expect(report).toEqual({
        dialect: backend.dialect,
        created: [],
        existing: [...tableNames],
        upgraded: [],
        added: [],
      })
    })
  })

  describe('model fields without a column', () => {
    it('linkAccount drops provider-specific token fields the table has no column for and keeps the rest', async () => {
      const adapter = KyselyAdapter(backend.db())
      const user = await adapter.createUser(newUser())
      const account = newAccount(user.id, { expires_in: 3600, 'not-before-policy': 0, ext_expires_in: 3600 })
      await adapter.linkAccount(account)
      const stored = await adapter.getAccount(account.providerAccountId, account.provider)
      expect(stored).toMatchObject({ access_token: account.access_token, expires_at: account.expires_at })
      expect(stored).not.toHaveProperty('expires_in')
      expect(stored).not.toHaveProperty('not-before-policy')
    })
  })

  describe('driver errors', () => {
    it('a unique violation is an AdapterError of kind "duplicate" carrying the driver error', async () => {
      const adapter = KyselyAdapter(backend.db())
      const user = await adapter.createUser(newUser())
      const failure = await Promise.resolve(adapter.createUser(newUser({ email: user.email }))).catch(
        (err: unknown) => err,
      )
      expect(failure).toBeInstanceOf(AdapterError)
      const { cause } = failure as AdapterError
      expect(cause).toMatchObject({ method: 'createUser', kind: 'duplicate' })
      expect(cause?.err).toBeInstanceOf(Error)
    })
  })

  describe('a connection lost in the middle of deleteUser', () => {
    it('gives an AdapterError of kind "unreachable" and leaves the user and all its records in place', async () => {
      const adapter = KyselyAdapter(backend.db())
      const user = await adapter.createUser(newUser())
      const account = newAccount(user.id)
      await adapter.linkAccount(account)
      const session = await adapter.createSession({ sessionToken: randomUUID(), userId: user.id, expires: inDays(30) })
      const authenticator = await adapter.createAuthenticator(newAuthenticator(user.id))

      // deleteUser deletes the sessions first; the connection dies right after that statement, inside the transaction.
      const killable = backend.openKillable(/^delete from ["`]Session["`]/)
      try {
        const failure = await Promise.resolve(KyselyAdapter(killable).deleteUser(user.id)).catch((err: unknown) => err)
        expect(failure).toBeInstanceOf(AdapterError)
        expect((failure as AdapterError).cause).toMatchObject({ method: 'deleteUser', kind: 'unreachable' })
      } finally {
        await killable.destroy().catch(() => {
          /* its connection is already dead */
        })
      }

      const store = backend.store()
      expect(await store.user(user.id)).not.toBeNull()
      expect(await store.session(session.sessionToken)).not.toBeNull()
      expect(await store.account(account.provider, account.providerAccountId)).not.toBeNull()
      expect(await store.authenticator(authenticator.credentialID)).not.toBeNull()

      // The shared pool is unaffected: the same delete on a healthy connection goes through.
      await adapter.deleteUser(user.id)
      expect(await store.session(session.sessionToken)).toBeNull()
    })
  })
}
