/** Conformance: single-use verification tokens (with the 50-way race) and WebAuthn authenticators. */
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { AdapterError } from '../../src/errors.js'
import { inDays, newAuthenticator, newUser, expectExpiry, type ConformanceContext } from './conformance-fixtures.js'

/** Verification tokens: single use, identifier mismatch, the 50-way race. */
export function verificationTokenSuite(context: ConformanceContext): void {
  describe('verification tokens', () => {
    const newToken = () => ({ identifier: `${randomUUID()}@example.com`, token: randomUUID(), expires: inDays(1) })

    it('useVerificationToken returns the token once, expires a Date, and null ever after', async () => {
      const token = newToken()
      await context.adapter.createVerificationToken(token)
      expect(await context.store.verificationToken(token.identifier, token.token)).not.toBeNull()

      const used = await context.adapter.useVerificationToken({ identifier: token.identifier, token: token.token })
      expect(used).toMatchObject({ identifier: token.identifier, token: token.token })
      expect(used?.expires).toBeInstanceOf(Date)
      expectExpiry(context, used?.expires, token.expires)
      expect(await context.store.verificationToken(token.identifier, token.token)).toBeNull()
      expect(
        await context.adapter.useVerificationToken({ identifier: token.identifier, token: token.token }),
      ).toBeNull()
    })

    it('a token presented with another identifier gives null and stays usable by its owner', async () => {
      const token = newToken()
      await context.adapter.createVerificationToken(token)
      expect(
        await context.adapter.useVerificationToken({ identifier: 'attacker@example.com', token: token.token }),
      ).toBeNull()
      expect(await context.store.verificationToken(token.identifier, token.token)).not.toBeNull()
      expect(
        await context.adapter.useVerificationToken({ identifier: token.identifier, token: token.token }),
      ).toMatchObject({ identifier: token.identifier })
    })

    it('useVerificationToken returns null for a token that was never created', async () => {
      expect(
        await context.adapter.useVerificationToken({ identifier: 'nobody@example.com', token: randomUUID() }),
      ).toBeNull()
    })

    it('of 50 concurrent uses of one token, exactly one gets it', async () => {
      // A first round on unknown tokens opens every pooled connection, so the real round runs truly in parallel
      // instead of queueing behind connection set-up.
      await Promise.all(
        Array.from({ length: 50 }, async () =>
          context.adapter.useVerificationToken({ identifier: 'warm-up@example.com', token: randomUUID() }),
        ),
      )
      const token = newToken()
      await context.adapter.createVerificationToken(token)
      const attempts = await Promise.all(
        Array.from({ length: 50 }, async () =>
          context.adapter.useVerificationToken({ identifier: token.identifier, token: token.token }),
        ),
      )
      const winners = attempts.filter((result) => result !== null)
      expect(winners).toHaveLength(1)
      expect(winners[0]).toMatchObject({ identifier: token.identifier, token: token.token })
      expect(await context.store.verificationToken(token.identifier, token.token)).toBeNull()
    })
  })
}

/** Authenticators: types on the way back, listing, counter updates, failures that must throw. */
export function authenticatorSuite(context: ConformanceContext): void {
  describe('authenticators', () => {
    it('createAuthenticator returns the credential; getAuthenticator reads it back with its types', async () => {
      const user = await context.adapter.createUser(newUser())
      const backedUp = newAuthenticator(user.id, { credentialBackedUp: true, counter: 7, transports: 'usb,nfc' })
      const single = newAuthenticator(user.id, {
        credentialBackedUp: false,
        credentialDeviceType: 'singleDevice',
        transports: null,
      })
      expect(await context.adapter.createAuthenticator(backedUp)).toMatchObject(backedUp)
      await context.adapter.createAuthenticator(single)
      expect(await context.store.authenticator(backedUp.credentialID)).toMatchObject({ userId: user.id })

      expect(await context.adapter.getAuthenticator(backedUp.credentialID)).toEqual(expect.objectContaining(backedUp))
      const readSingle = await context.adapter.getAuthenticator(single.credentialID)
      expect(readSingle).toMatchObject({ credentialBackedUp: false, counter: 0, credentialDeviceType: 'singleDevice' })
      expect(readSingle?.transports ?? null).toBeNull()
    })

    it('getAuthenticator returns null when there is no such credential', async () => {
      expect(await context.adapter.getAuthenticator(randomUUID())).toBeNull()
    })

    it("listAuthenticatorsByUserId lists the user's credentials, and [] for an unknown user", async () => {
      const user = await context.adapter.createUser(newUser())
      const other = await context.adapter.createUser(newUser())
      const mine = [newAuthenticator(user.id), newAuthenticator(user.id)]
      for (const authenticator of [...mine, newAuthenticator(other.id)])
        await context.adapter.createAuthenticator(authenticator)
      const listed = await context.adapter.listAuthenticatorsByUserId(user.id)
      expect(listed.map((a) => a.credentialID).sort()).toEqual(mine.map((a) => a.credentialID).sort())
      expect(await context.adapter.listAuthenticatorsByUserId(randomUUID())).toEqual([])
      expect(await context.adapter.listAuthenticatorsByUserId('not-a-known-user')).toEqual([])
    })

    it('updateAuthenticatorCounter stores the new counter and returns the credential', async () => {
      const user = await context.adapter.createUser(newUser())
      const authenticator = newAuthenticator(user.id)
      await context.adapter.createAuthenticator(authenticator)
      const updated = await context.adapter.updateAuthenticatorCounter(authenticator.credentialID, 42)
      expect(updated).toMatchObject({ credentialID: authenticator.credentialID, counter: 42, userId: user.id })
      expect(await context.store.authenticator(authenticator.credentialID)).toMatchObject({ counter: 42 })
      expect((await context.adapter.getAuthenticator(authenticator.credentialID))?.counter).toBe(42)
    })

    it('updateAuthenticatorCounter throws an AdapterError for an unknown credential', async () => {
      await expect(Promise.resolve(context.adapter.updateAuthenticatorCounter(randomUUID(), 1))).rejects.toBeInstanceOf(
        AdapterError,
      )
    })

    it('createAuthenticator throws an AdapterError for a credential id that is already stored', async () => {
      const user = await context.adapter.createUser(newUser())
      const authenticator = newAuthenticator(user.id)
      await context.adapter.createAuthenticator(authenticator)
      await expect(
        Promise.resolve(context.adapter.createAuthenticator({ ...authenticator, counter: 99 })),
      ).rejects.toBeInstanceOf(AdapterError)
      expect(await context.adapter.getAuthenticator(authenticator.credentialID)).toMatchObject({
        counter: authenticator.counter,
      })
    })
  })
}
