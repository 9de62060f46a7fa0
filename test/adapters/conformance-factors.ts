/**
 * Conformance: second factors (docs/adapters.md, "Second factors (storage)"). A TOTP factor's step is claimed once,
 * a recovery code is spent once, under concurrency too; a factor goes with its codes, and with its user.
 */
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { AdapterFactor, NewAdapterFactor } from '../../src/types/adapters.js'
import { AdapterError } from '../../src/errors.js'
import { hashRecoveryCode, newRecoveryCodes } from '../../src/factors/recovery-codes.js'
import { openTotpSecret, sealTotpSecret } from '../../src/factors/secret-seal.js'
import { checkTotpCode, newTotpSecret, totpCode, totpStep } from '../../src/factors/totp.js'
import { newUser, type ConformanceContext } from './conformance-fixtures.js'

/** A TOTP factor of `userId` whose secret is sealed as the core seals it. */
function newTotpFactor(userId: string, fields: Partial<AdapterFactor> = {}): AdapterFactor & { plainSecret: string } {
  const id = randomUUID()
  const plainSecret = newTotpSecret()
  return {
    id,
    userId,
    type: 'totp',
    secret: sealTotpSecret(['conformance-secret'], { userId, factorId: id }, plainSecret),
    lastUsedStep: null,
    label: 'phone',
    createdAt: new Date('2026-01-02T03:04:05.678Z'),
    plainSecret,
    ...fields,
  }
}

/** A set of recovery codes of `userId`: the codes to hand out and the factor that stores their hashes. */
function newRecoveryFactor(userId: string): { codes: string[]; factor: NewAdapterFactor } {
  const codes = newRecoveryCodes()
  const recoveryCodeHashes = codes.map((code) => hashRecoveryCode(userId, code) ?? '')
  const factor: NewAdapterFactor = {
    id: randomUUID(),
    userId,
    type: 'recovery-codes',
    secret: null,
    lastUsedStep: null,
    label: null,
    createdAt: new Date('2026-01-02T03:04:06.000Z'),
    recoveryCodeHashes,
  }
  return { codes, factor }
}

const hashOf = (userId: string, code: string | undefined) => hashRecoveryCode(userId, code ?? '') ?? ''

/** Second factors: create, list, claim a TOTP step, spend a recovery code, delete, and the two races. */
export function factorSuite(context: ConformanceContext): void {
  const factorStore = () => {
    const readers = context.factorStore
    if (!readers) throw new Error('the backend gave no factor store readers')
    return readers
  }

  describe('second factors', () => {
    it('createFactor stores a TOTP factor with its sealed secret; listFactorsByUserId reads it back typed', async () => {
      const user = await context.adapter.createUser(newUser())
      const { plainSecret, ...factor } = newTotpFactor(user.id)
      expect(await context.adapter.createFactor(factor)).toEqual(factor)
      // Stored as given: the sealed text, never the plain secret.
      const stored = await factorStore().factor(user.id, factor.id)
      expect(stored).toMatchObject({ secret: factor.secret })
      expect(JSON.stringify(stored)).not.toContain(plainSecret)

      const [listed, ...more] = await context.adapter.listFactorsByUserId(user.id)
      expect(more).toEqual([])
      expect(listed).toEqual(factor)
      expect(listed?.createdAt).toBeInstanceOf(Date)
      expect(
        openTotpSecret(['conformance-secret'], { userId: user.id, factorId: factor.id }, listed?.secret ?? ''),
      ).toEqual({ secret: plainSecret, keyIndex: 0 })
      expect(await context.adapter.listFactorsByUserId(randomUUID())).toEqual([])
      expect(await context.adapter.listFactorsByUserId('not-a-known-user')).toEqual([])
    })

    it('createFactor stores a set of recovery codes as their hashes only', async () => {
      const user = await context.adapter.createUser(newUser())
      const { codes, factor } = newRecoveryFactor(user.id)
      const { recoveryCodeHashes, ...stored } = factor
      expect(await context.adapter.createFactor(factor)).toEqual(stored)
      expect((await factorStore().recoveryCodeHashes(user.id)).sort()).toEqual([...(recoveryCodeHashes ?? [])].sort())
      expect(JSON.stringify(await factorStore().recoveryCodeHashes(user.id))).not.toContain(codes[0]?.slice(0, 4))
      expect(await context.adapter.listFactorsByUserId(user.id)).toEqual([stored])
    })

    it('useRecoveryCode spends a code once; another user cannot spend it; an unknown hash spends nothing', async () => {
      const user = await context.adapter.createUser(newUser())
      const other = await context.adapter.createUser(newUser())
      const { codes, factor } = newRecoveryFactor(user.id)
      await context.adapter.createFactor(factor)

      expect(await context.adapter.useRecoveryCode({ userId: other.id, codeHash: hashOf(user.id, codes[0]) })).toBe(
        false,
      )
      expect(await context.adapter.useRecoveryCode({ userId: user.id, codeHash: hashOf(user.id, codes[0]) })).toBe(true)
      expect(await context.adapter.useRecoveryCode({ userId: user.id, codeHash: hashOf(user.id, codes[0]) })).toBe(
        false,
      )
      expect(
        await context.adapter.useRecoveryCode({ userId: user.id, codeHash: hashOf(user.id, 'zzzz-zzzz-zzzz-zzzz') }),
      ).toBe(false)
      expect(await factorStore().recoveryCodeHashes(user.id)).toHaveLength(codes.length - 1)
      // The others stay usable.
      expect(await context.adapter.useRecoveryCode({ userId: user.id, codeHash: hashOf(user.id, codes[1]) })).toBe(true)
    })

    it('useTotpStep claims a step above the last used one only, and records it', async () => {
      const user = await context.adapter.createUser(newUser())
      const { plainSecret, ...factor } = newTotpFactor(user.id)
      await context.adapter.createFactor(factor)
      const step = totpStep(Date.now())
      const use = (fields: Partial<{ userId: string; factorId: string; step: number }>) =>
        context.adapter.useTotpStep({ userId: user.id, factorId: factor.id, step, ...fields })

      expect(await use({})).toBe(true)
      expect(await use({})).toBe(false)
      expect(await use({ step: step - 1 })).toBe(false)
      expect(await factorStore().factor(user.id, factor.id)).toMatchObject({ lastUsedStep: expect.anything() })
      expect((await context.adapter.listFactorsByUserId(user.id))[0]?.lastUsedStep).toBe(step)
      expect(await use({ step: step + 1 })).toBe(true)
      expect((await context.adapter.listFactorsByUserId(user.id))[0]?.lastUsedStep).toBe(step + 1)

      // The step a code was accepted for is refused from then on, as the check and the store agree.
      const lastUsedStep = (await context.adapter.listFactorsByUserId(user.id))[0]?.lastUsedStep ?? null
      const code = totpCode(plainSecret, step + 1)
      expect(checkTotpCode({ secret: plainSecret, code, nowMs: (step + 1) * 30_000, lastUsedStep })).toBeNull()
    })

    it("useTotpStep claims nothing for another user's factor, an unknown factor or a recovery code set", async () => {
      const user = await context.adapter.createUser(newUser())
      const other = await context.adapter.createUser(newUser())
      const { plainSecret: _, ...factor } = newTotpFactor(user.id)
      await context.adapter.createFactor(factor)
      const { factor: codes } = newRecoveryFactor(user.id)
      await context.adapter.createFactor(codes)
      const step = totpStep(Date.now())
      expect(await context.adapter.useTotpStep({ userId: other.id, factorId: factor.id, step })).toBe(false)
      expect(await context.adapter.useTotpStep({ userId: user.id, factorId: randomUUID(), step })).toBe(false)
      expect(await context.adapter.useTotpStep({ userId: user.id, factorId: 'not-a-factor-id', step })).toBe(false)
      expect(await context.adapter.useTotpStep({ userId: user.id, factorId: codes.id, step })).toBe(false)
      // Still unused by its owner.
      expect(await context.adapter.useTotpStep({ userId: user.id, factorId: factor.id, step })).toBe(true)
    })

    it('deleteFactor removes a factor of the user with its codes and returns it; not for another user', async () => {
      const user = await context.adapter.createUser(newUser())
      const other = await context.adapter.createUser(newUser())
      const { plainSecret: _, ...totp } = newTotpFactor(user.id)
      await context.adapter.createFactor(totp)
      const { codes, factor } = newRecoveryFactor(user.id)
      await context.adapter.createFactor(factor)

      expect(await context.adapter.deleteFactor({ userId: other.id, factorId: factor.id })).toBeNull()
      expect(await context.adapter.deleteFactor({ userId: user.id, factorId: randomUUID() })).toBeNull()
      expect(await context.adapter.deleteFactor({ userId: user.id, factorId: 'not-a-factor-id' })).toBeNull()
      expect(await context.adapter.listFactorsByUserId(user.id)).toHaveLength(2)

      expect(await context.adapter.deleteFactor({ userId: user.id, factorId: factor.id })).toMatchObject({
        id: factor.id,
        type: 'recovery-codes',
      })
      expect(await factorStore().recoveryCodeHashes(user.id)).toEqual([])
      expect(await context.adapter.useRecoveryCode({ userId: user.id, codeHash: hashOf(user.id, codes[0]) })).toBe(
        false,
      )
      expect((await context.adapter.listFactorsByUserId(user.id)).map((f) => f.id)).toEqual([totp.id])
      expect(await factorStore().factor(user.id, totp.id)).not.toBeNull()
    })

    it('regenerating recovery codes (delete the set, create another) spends every old code', async () => {
      const user = await context.adapter.createUser(newUser())
      const first = newRecoveryFactor(user.id)
      await context.adapter.createFactor(first.factor)
      await context.adapter.deleteFactor({ userId: user.id, factorId: first.factor.id })
      const second = newRecoveryFactor(user.id)
      await context.adapter.createFactor(second.factor)
      expect(
        await context.adapter.useRecoveryCode({ userId: user.id, codeHash: hashOf(user.id, first.codes[0]) }),
      ).toBe(false)
      expect(
        await context.adapter.useRecoveryCode({ userId: user.id, codeHash: hashOf(user.id, second.codes[0]) }),
      ).toBe(true)
    })

    it('createFactor refuses a taken factor id or code hash with an AdapterError and stores nothing', async () => {
      const user = await context.adapter.createUser(newUser())
      const { plainSecret: _, ...factor } = newTotpFactor(user.id)
      await context.adapter.createFactor(factor)
      await expect(Promise.resolve(context.adapter.createFactor({ ...factor, label: 'again' }))).rejects.toBeInstanceOf(
        AdapterError,
      )
      expect((await context.adapter.listFactorsByUserId(user.id)).map((f) => f.label)).toEqual(['phone'])

      const { factor: codes } = newRecoveryFactor(user.id)
      await context.adapter.createFactor(codes)
      const clash = { ...newRecoveryFactor(user.id).factor, recoveryCodeHashes: [codes.recoveryCodeHashes?.[0] ?? ''] }
      await expect(Promise.resolve(context.adapter.createFactor(clash))).rejects.toBeInstanceOf(AdapterError)
      expect(await factorStore().factor(user.id, clash.id)).toBeNull()
      expect(await context.adapter.listFactorsByUserId(user.id)).toHaveLength(2)
    })

    it('deleteUser deletes the factors and recovery codes of the user', async () => {
      const user = await context.adapter.createUser(newUser())
      const { plainSecret: _, ...totp } = newTotpFactor(user.id)
      await context.adapter.createFactor(totp)
      const { codes, factor } = newRecoveryFactor(user.id)
      await context.adapter.createFactor(factor)
      await context.adapter.deleteUser(user.id)
      expect(await factorStore().factor(user.id, totp.id)).toBeNull()
      expect(await factorStore().factor(user.id, factor.id)).toBeNull()
      expect(await factorStore().recoveryCodeHashes(user.id)).toEqual([])
      expect(await context.adapter.listFactorsByUserId(user.id)).toEqual([])
      expect(await context.adapter.useRecoveryCode({ userId: user.id, codeHash: hashOf(user.id, codes[0]) })).toBe(
        false,
      )
    })

    it('of 20 concurrent uses of one recovery code, exactly one succeeds', async () => {
      const user = await context.adapter.createUser(newUser())
      const { codes, factor } = newRecoveryFactor(user.id)
      await context.adapter.createFactor(factor)
      // A first round opens every pooled connection, so the real round runs in parallel instead of queueing.
      await Promise.all(
        Array.from({ length: 20 }, async () =>
          context.adapter.useRecoveryCode({ userId: user.id, codeHash: hashOf(user.id, 'zzzz-zzzz-zzzz-zzzz') }),
        ),
      )
      const codeHash = hashOf(user.id, codes[0])
      const attempts = await Promise.all(
        Array.from({ length: 20 }, async () => context.adapter.useRecoveryCode({ userId: user.id, codeHash })),
      )
      expect(attempts.filter((used) => used)).toHaveLength(1)
      expect(await factorStore().recoveryCodeHashes(user.id)).toHaveLength(codes.length - 1)
    })

    it('of 20 concurrent claims of one TOTP step, exactly one succeeds', async () => {
      const user = await context.adapter.createUser(newUser())
      const { plainSecret: _, ...factor } = newTotpFactor(user.id)
      await context.adapter.createFactor(factor)
      const step = totpStep(Date.now())
      await Promise.all(
        Array.from({ length: 20 }, async () =>
          context.adapter.useTotpStep({ userId: user.id, factorId: randomUUID(), step }),
        ),
      )
      const attempts = await Promise.all(
        Array.from({ length: 20 }, async () =>
          context.adapter.useTotpStep({ userId: user.id, factorId: factor.id, step }),
        ),
      )
      expect(attempts.filter((claimed) => claimed)).toHaveLength(1)
      expect((await context.adapter.listFactorsByUserId(user.id))[0]?.lastUsedStep).toBe(step)
    })
  })
}
