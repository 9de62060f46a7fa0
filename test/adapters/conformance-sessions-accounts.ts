/** Conformance: accounts (linking, lookup in both directions) and database sessions. */
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { AdapterError } from '../../src/errors.js'
import { inDays, newAccount, newUser, expectExpiry, type ConformanceContext } from './conformance-fixtures.js'

/** Accounts: linking, both lookups, argument order, duplicates, unlinking. */
export function accountSuite(context: ConformanceContext): void {
  describe('accounts', () => {
    it('linkAccount stores the account and getUserByAccount finds its user', async () => {
      const user = await context.adapter.createUser(newUser())
      const account = newAccount(user.id)
      await context.adapter.linkAccount(account)
      expect(await context.store.account(account.provider, account.providerAccountId)).toMatchObject({
        userId: user.id,
      })
      const found = await context.adapter.getUserByAccount({
        provider: account.provider,
        providerAccountId: account.providerAccountId,
      })
      expect(found).toMatchObject({ id: user.id, email: user.email })
    })

    it('getAccount takes (providerAccountId, provider), in that order', async () => {
      const user = await context.adapter.createUser(newUser())
      const account = newAccount(user.id)
      await context.adapter.linkAccount(account)
      expect(await context.adapter.getAccount(account.providerAccountId, account.provider)).toMatchObject({
        userId: user.id,
      })
      expect(await context.adapter.getAccount(account.provider, account.providerAccountId)).toBeNull()
    })

    it('keeps every token field, expires_at as a number', async () => {
      const user = await context.adapter.createUser(newUser())
      const account = newAccount(user.id)
      await context.adapter.linkAccount(account)
      const found = await context.adapter.getAccount(account.providerAccountId, account.provider)
      expect(found).toMatchObject(account)
      expect(typeof found?.expires_at).toBe('number')
    })

    it('getAccount and getUserByAccount return null when there is no such account', async () => {
      expect(await context.adapter.getAccount(randomUUID(), 'example-idp')).toBeNull()
      expect(
        await context.adapter.getUserByAccount({ provider: 'example-idp', providerAccountId: randomUUID() }),
      ).toBeNull()
    })

    it('linkAccount rejects a provider account that is already linked with an AdapterError, keeping the first link', async () => {
      const owner = await context.adapter.createUser(newUser())
      const intruder = await context.adapter.createUser(newUser())
      const account = newAccount(owner.id)
      await context.adapter.linkAccount(account)
      const failure = await Promise.resolve(
        context.adapter.linkAccount({ ...account, userId: intruder.id, access_token: 'other' }),
      ).catch((err: unknown) => err)
      expect(failure).toBeInstanceOf(AdapterError)
      expect(String((failure as AdapterError).message)).toMatch(/linkAccount.*already exists/)
      expect(await context.store.account(account.provider, account.providerAccountId)).toMatchObject({
        userId: owner.id,
        access_token: account.access_token,
      })
      expect(await context.adapter.getUserByAccount(account)).toMatchObject({ id: owner.id })
    })

    it('unlinkAccount removes the account, returning it or nothing', async () => {
      const user = await context.adapter.createUser(newUser())
      const account = newAccount(user.id)
      await context.adapter.linkAccount(account)
      const removed = await context.adapter.unlinkAccount({
        provider: account.provider,
        providerAccountId: account.providerAccountId,
      })
      if (removed) expect(removed).toMatchObject({ providerAccountId: account.providerAccountId, userId: user.id })
      expect(await context.store.account(account.provider, account.providerAccountId)).toBeNull()
      expect(await context.adapter.getUserByAccount(account)).toBeNull()
      expect(await context.adapter.getUser(user.id)).toMatchObject({ id: user.id })
    })
  })
}

/** Database sessions: create, read with the user, update, delete, duplicate tokens. */
export function sessionSuite(context: ConformanceContext): void {
  describe('sessions', () => {
    it('createSession returns the session; getSessionAndUser returns it with its user, expires a Date', async () => {
      const user = await context.adapter.createUser(newUser())
      const expires = inDays(30)
      const sessionToken = randomUUID()
      const created = await context.adapter.createSession({ sessionToken, userId: user.id, expires })
      expect(created).toMatchObject({ sessionToken, userId: user.id })
      expectExpiry(context, created.expires, expires)
      expect(await context.store.session(sessionToken)).toMatchObject({ sessionToken, userId: user.id })

      const found = await context.adapter.getSessionAndUser(sessionToken)
      expect(found?.session).toMatchObject({ sessionToken, userId: user.id })
      expect(found?.session.expires).toBeInstanceOf(Date)
      expectExpiry(context, found?.session.expires, expires)
      expect(found?.user).toMatchObject({ id: user.id, email: user.email, name: user.name })
    })

    it('getSessionAndUser returns null for an unknown token', async () => {
      expect(await context.adapter.getSessionAndUser(randomUUID())).toBeNull()
    })

    it('updateSession moves the expiry and returns the updated session', async () => {
      const user = await context.adapter.createUser(newUser())
      const sessionToken = randomUUID()
      await context.adapter.createSession({ sessionToken, userId: user.id, expires: inDays(1) })
      const later = inDays(30)
      const updated = await context.adapter.updateSession({ sessionToken, expires: later })
      if (updated) expectExpiry(context, updated.expires, later)
      const found = await context.adapter.getSessionAndUser(sessionToken)
      expectExpiry(context, found?.session.expires, later)
    })

    it('updateSession of an unknown token returns null or undefined and creates nothing', async () => {
      const sessionToken = randomUUID()
      expect((await context.adapter.updateSession({ sessionToken, expires: inDays(30) })) ?? null).toBeNull()
      expect(await context.store.session(sessionToken)).toBeNull()
    })

    it('deleteSession removes the session, returning it or nothing', async () => {
      const user = await context.adapter.createUser(newUser())
      const sessionToken = randomUUID()
      await context.adapter.createSession({ sessionToken, userId: user.id, expires: inDays(30) })
      const deleted = await context.adapter.deleteSession(sessionToken)
      if (deleted) expect(deleted).toMatchObject({ sessionToken, userId: user.id })
      expect(await context.store.session(sessionToken)).toBeNull()
      expect(await context.adapter.getSessionAndUser(sessionToken)).toBeNull()
      expect(await context.adapter.getUser(user.id)).toMatchObject({ id: user.id })
    })

    it('createSession rejects a token that is already in use with an AdapterError', async () => {
      const user = await context.adapter.createUser(newUser())
      const other = await context.adapter.createUser(newUser())
      const sessionToken = randomUUID()
      await context.adapter.createSession({ sessionToken, userId: user.id, expires: inDays(30) })
      await expect(
        Promise.resolve(context.adapter.createSession({ sessionToken, userId: other.id, expires: inDays(30) })),
      ).rejects.toBeInstanceOf(AdapterError)
      expect((await context.adapter.getSessionAndUser(sessionToken))?.user.id).toBe(user.id)
    })
  })
}
