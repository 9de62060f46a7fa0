/**
 * The adapter conformance suite: one set of tests every adapter must pass, covering all 19 methods with the
 * spec's rules. Each backend's test file calls `adapterConformanceSuite` inside a `describe`, giving the adapter
 * and raw readers of its store, so that what a method wrote is checked in the store itself and not only through
 * the adapter's own reads (a `deleteUser` that "forgets" a session would still be seen).
 *
 * The store must allow an extra text field `role` on users (SQL stores: a `role` column), to show that extra
 * fields survive. Every test makes its own records with random ids and addresses, so suites may share a store.
 */
import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  adapterMethodNames,
  factorMethodNames,
  sessionRecordMethodNames,
  type Adapter,
  type AdapterUser,
} from '../../src/types/adapters.js'
import { AdapterError } from '../../src/errors.js'
import { factorSuite } from './conformance-factors.js'
import { accountSuite, sessionRecordSuite, sessionSuite } from './conformance-sessions-accounts.js'
import {
  inDays,
  newAccount,
  newAuthenticator,
  newUser,
  type ConformanceContext,
  type ConformanceTarget,
} from './conformance-fixtures.js'
import { authenticatorSuite, verificationTokenSuite } from './conformance-tokens-authenticators.js'

export type { ConformanceTarget, FactorStoreReaders, StoreReaders } from './conformance-fixtures.js'

/** Which parts of the suite apply. */
export interface ConformanceOptions {
  /**
   * Whether the second-factor methods are tested (default true). Only a database made by another Auth.js adapter,
   * which has no factor tables, leaves them out.
   */
  factors?: boolean
  /**
   * Whether the store has the session record's columns (default true; docs/sessions.md). A database made by another
   * Auth.js adapter has not: the record's fields must then be dropped without failing.
   */
  sessionRecordColumns?: boolean
}

/** Registers the whole suite in the current `describe`. `connect` runs once, before the first test. */
export function adapterConformanceSuite(
  connect: () => Promise<ConformanceTarget>,
  { factors = true, sessionRecordColumns = true }: ConformanceOptions = {},
): void {
  const context = {} as ConformanceContext
  beforeAll(async () => {
    const target = await connect()
    const required = [...adapterMethodNames, ...sessionRecordMethodNames, ...(factors ? factorMethodNames : [])]
    const missing = required.filter((name) => typeof target.adapter[name] !== 'function')
    if (missing.length > 0) throw new Error(`the adapter lacks ${missing.join(', ')}`)
    // Every method was checked present just above.
    context.adapter = target.adapter as Required<Adapter>
    context.store = target.store
    context.factorStore = target.factorStore
    context.traits = target.traits ?? {}
  })

  it('implements all 19 methods of the Adapter interface', () => {
    expect(adapterMethodNames.filter((name) => typeof context.adapter[name] === 'function')).toHaveLength(19)
  })

  userSuite(context)
  accountSuite(context)
  sessionSuite(context)
  sessionRecordSuite(context, { columns: sessionRecordColumns })
  verificationTokenSuite(context)
  authenticatorSuite(context)
  deleteUserSuite(context)
  if (factors) factorSuite(context)
}

function userSuite(context: ConformanceContext): void {
  describe('users', () => {
    it('createUser stores the user and returns it, emailVerified still a Date', async () => {
      const verified = new Date('2024-05-06T07:08:09.123Z')
      const user = newUser({ emailVerified: verified })
      const created = await context.adapter.createUser(user)
      // A store that assigns ids returns its own; every other store keeps the one given.
      const id = context.traits.assignsUserIds ? created.id : user.id
      expect(created).toMatchObject({ id, email: user.email, name: user.name, image: user.image })
      expect(created.emailVerified).toBeInstanceOf(Date)
      expect(created.emailVerified?.getTime()).toBe(verified.getTime())
      expect(await context.store.user(id)).toMatchObject({ email: user.email })
      expect(String(((await context.store.user(id)) as { id: unknown } | null)?.id)).toBe(id)
    })

    it('getUser returns the user with a Date, and null for an unknown id', async () => {
      const user = await context.adapter.createUser(newUser({ emailVerified: inDays(-1) }))
      const found = await context.adapter.getUser(user.id)
      expect(found).toMatchObject({ id: user.id, email: user.email })
      expect(found?.emailVerified?.getTime()).toBe(user.emailVerified?.getTime())
      expect(await context.adapter.getUser(randomUUID())).toBeNull()
    })

    it('getUserByEmail returns the user, and null for an unknown address', async () => {
      const user = await context.adapter.createUser(newUser())
      expect(await context.adapter.getUserByEmail(user.email)).toMatchObject({ id: user.id })
      expect(await context.adapter.getUserByEmail(`${randomUUID()}@example.com`)).toBeNull()
    })

    it('createUser rejects a second user with a taken email with an AdapterError and stores nothing', async () => {
      const first = await context.adapter.createUser(newUser())
      const second = newUser({ email: first.email })
      const failure = await Promise.resolve(context.adapter.createUser(second)).catch((err: unknown) => err)
      expect(failure).toBeInstanceOf(AdapterError)
      expect(String((failure as AdapterError).message)).toMatch(/createUser.*already exists/)
      expect(await context.store.user(second.id)).toBeNull()
      expect(await context.adapter.getUserByEmail(first.email)).toMatchObject({ id: first.id })
    })

    it('updateUser changes the given fields, keeps the rest, and returns the result', async () => {
      const user = await context.adapter.createUser(newUser())
      const verified = new Date('2025-01-02T03:04:05.678Z')
      const updated = await context.adapter.updateUser({ id: user.id, name: 'Ada King', emailVerified: verified })
      expect(updated).toMatchObject({ id: user.id, email: user.email, image: user.image, name: 'Ada King' })
      expect(updated.emailVerified?.getTime()).toBe(verified.getTime())
      expect(await context.store.user(user.id)).toMatchObject({ name: 'Ada King' })
      const read = await context.adapter.getUser(user.id)
      expect(read?.emailVerified?.getTime()).toBe(verified.getTime())
    })

    it('updateUser moves the email, so the user is found by the new address only', async () => {
      const user = await context.adapter.createUser(newUser())
      const email = `${randomUUID()}@example.com`
      await context.adapter.updateUser({ id: user.id, email })
      expect(await context.adapter.getUserByEmail(email)).toMatchObject({ id: user.id })
      expect(await context.adapter.getUserByEmail(user.email)).toBeNull()
    })

    it("updateUser rejects taking another user's email with an AdapterError and changes nothing", async () => {
      const taken = await context.adapter.createUser(newUser())
      const user = await context.adapter.createUser(newUser())
      await expect(
        Promise.resolve(context.adapter.updateUser({ id: user.id, email: taken.email, name: 'changed' })),
      ).rejects.toBeInstanceOf(AdapterError)
      expect(await context.adapter.getUser(user.id)).toMatchObject({ email: user.email, name: user.name })
      expect(await context.adapter.getUserByEmail(taken.email)).toMatchObject({ id: taken.id })
    })

    it('updateUser of an unknown id throws an AdapterError', async () => {
      await expect(
        Promise.resolve(context.adapter.updateUser({ id: randomUUID(), name: 'nobody' })),
      ).rejects.toBeInstanceOf(AdapterError)
    })

    it('keeps an extra field of the user model', async () => {
      const user = await context.adapter.createUser({ ...newUser(), role: 'admin' } as AdapterUser)
      expect(await context.adapter.getUser(user.id)).toMatchObject({ role: 'admin' })
    })

    it('hands out copies: changing a returned user does not change the store', async () => {
      const user = await context.adapter.createUser(newUser())
      const read = await context.adapter.getUser(user.id)
      if (read) read.name = 'mutated'
      expect(await context.adapter.getUser(user.id)).toMatchObject({ name: user.name })
    })
  })
}

function deleteUserSuite(context: ConformanceContext): void {
  describe('deleteUser', () => {
    it("deletes the user with its sessions, accounts and authenticators, and nobody else's", async () => {
      const { adapter, store } = context
      const [user, other] = [await adapter.createUser(newUser()), await adapter.createUser(newUser())]
      const records = async (userId: string) => {
        const account = newAccount(userId)
        await adapter.linkAccount(account)
        const session = await adapter.createSession({ sessionToken: randomUUID(), userId, expires: inDays(30) })
        const authenticator = await adapter.createAuthenticator(newAuthenticator(userId))
        return { account, session, authenticator }
      }
      const mine = await records(user.id)
      const theirs = await records(other.id)

      await adapter.deleteUser(user.id)

      expect(await store.user(user.id)).toBeNull()
      expect(await store.session(mine.session.sessionToken)).toBeNull()
      expect(await store.account(mine.account.provider, mine.account.providerAccountId)).toBeNull()
      expect(await store.authenticator(mine.authenticator.credentialID)).toBeNull()
      expect(await adapter.getUserByEmail(user.email)).toBeNull()
      expect(await adapter.listAuthenticatorsByUserId(user.id)).toEqual([])

      expect(await store.user(other.id)).not.toBeNull()
      expect(await store.session(theirs.session.sessionToken)).not.toBeNull()
      expect(await store.account(theirs.account.provider, theirs.account.providerAccountId)).not.toBeNull()
      expect(await store.authenticator(theirs.authenticator.credentialID)).not.toBeNull()
    })

    it('resolves without a user for an unknown id', async () => {
      expect((await context.adapter.deleteUser(randomUUID())) ?? null).toBeNull()
    })
  })
}
