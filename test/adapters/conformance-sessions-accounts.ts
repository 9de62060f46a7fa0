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

/** The session record a sign-in writes on the row (docs/sessions.md, "Where the record is kept"). */
function newRecord(at: Date) {
  return {
    createdAt: at,
    lastSeenAt: at,
    deviceSummary: 'Firefox on Linux',
    clientAddress: '203.0.113.7',
    method: 'github',
    amr: '["fed","otp"]',
    authTime: at,
  }
}

/**
 * `listSessionsByUser` and the session record's fields. `columns`: the store keeps them (memory, Redis, SQL after
 * `migrate()`); without them (a table an Auth.js tool made) they are dropped, the call still succeeds and the core
 * falls back to the session store.
 */
export function sessionRecordSuite(context: ConformanceContext, { columns }: { columns: boolean }): void {
  describe('session records and listSessionsByUser', () => {
    it(
      columns
        ? 'createSession keeps the record fields; getSessionAndUser reads them back, dates as Dates'
        : 'createSession drops the record fields the table has no column for, and succeeds',
      async () => {
        const user = await context.adapter.createUser(newUser())
        const sessionToken = randomUUID()
        const at = new Date(Date.now() - 60_000)
        const record = newRecord(at)
        await context.adapter.createSession({ sessionToken, userId: user.id, expires: inDays(30), ...record })
        const found = (await context.adapter.getSessionAndUser(sessionToken))?.session
        expect(found).toMatchObject({ sessionToken, userId: user.id })
        if (!columns) {
          expect(found?.lastSeenAt ?? null).toBeNull()
          return
        }
        expect(found).toMatchObject({
          deviceSummary: record.deviceSummary,
          clientAddress: record.clientAddress,
          method: record.method,
          amr: record.amr,
        })
        for (const field of ['createdAt', 'lastSeenAt', 'authTime'] as const) {
          expect(found?.[field]).toBeInstanceOf(Date)
          expectExpiry(context, found?.[field] ?? undefined, at)
        }
        expect(await context.store.session(sessionToken)).toMatchObject({ deviceSummary: record.deviceSummary })
      },
    )

    if (columns) {
      it('updateSession moves lastSeenAt with the expiry and keeps the rest of the record', async () => {
        const user = await context.adapter.createUser(newUser())
        const sessionToken = randomUUID()
        const at = new Date(Date.now() - 60_000)
        await context.adapter.createSession({ sessionToken, userId: user.id, expires: inDays(1), ...newRecord(at) })
        const seen = new Date()
        const later = inDays(30)
        await context.adapter.updateSession({ sessionToken, expires: later, lastSeenAt: seen, clientAddress: '::1' })
        const found = (await context.adapter.getSessionAndUser(sessionToken))?.session
        expectExpiry(context, found?.expires, later)
        expectExpiry(context, found?.lastSeenAt ?? undefined, seen)
        expectExpiry(context, found?.createdAt ?? undefined, at)
        expect(found).toMatchObject({ clientAddress: '::1', method: 'github', amr: '["fed","otp"]' })
      })
    }

    it('listSessionsByUser lists the live sessions of that user only, with their records', async () => {
      const user = await context.adapter.createUser(newUser())
      const other = await context.adapter.createUser(newUser())
      const at = new Date(Date.now() - 60_000)
      const [first, second, expired, others] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()]
      await context.adapter.createSession({
        sessionToken: first,
        userId: user.id,
        expires: inDays(30),
        ...newRecord(at),
      })
      await context.adapter.createSession({ sessionToken: second, userId: user.id, expires: inDays(2) })
      await context.adapter.createSession({ sessionToken: others, userId: other.id, expires: inDays(30) })
      // An expired row is not a session: some stores drop it at once, the others keep it until it is met.
      await context.adapter.createSession({
        sessionToken: expired,
        userId: user.id,
        expires: new Date(Date.now() - 1000),
      })
      const listed = await context.adapter.listSessionsByUser(user.id)
      expect(listed.map((session) => session.sessionToken).sort()).toEqual([first, second].sort())
      expect(listed.every((session) => session.userId === user.id && session.expires instanceof Date)).toBe(true)
      const withRecord = listed.find((session) => session.sessionToken === first)
      if (columns) expect(withRecord).toMatchObject({ method: 'github', deviceSummary: 'Firefox on Linux' })
      expect(await context.adapter.listSessionsByUser(randomUUID())).toEqual([])
    })

    it('a deleted session is no longer listed', async () => {
      const user = await context.adapter.createUser(newUser())
      const sessionToken = randomUUID()
      await context.adapter.createSession({
        sessionToken,
        userId: user.id,
        expires: inDays(30),
        ...newRecord(new Date()),
      })
      await context.adapter.deleteSession(sessionToken)
      expect(await context.adapter.listSessionsByUser(user.id)).toEqual([])
    })
  })
}
