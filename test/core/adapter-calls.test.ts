import { describe, expect, it } from 'vitest'
import { MemoryAdapter } from '../../adapters/memory.js'
import { adapterMethodNames, factorMethodNames, type Adapter, type AdapterUser } from '../../src/types/adapters.js'
import { adapterMethodsNeededBy, requireAdapterMethods, wrapAdapter } from '../../src/core/adapter-calls.js'
import type { AuthError } from '../../src/errors.js'
import { AdapterError, MissingAdapter, MissingAdapterMethods, OAuthAccountNotLinked } from '../../src/errors.js'
import { hintOf } from '../../src/logger.js'

/** A logger that keeps what it is given, so tests can see what was reported. */
function recordingLogger() {
  const errors: Error[] = []
  return {
    errors,
    error: (error: Error) => {
      errors.push(error)
    },
  }
}

const user: AdapterUser = { id: 'u1', email: 'ada@example.com', emailVerified: null }

describe('requireAdapterMethods', () => {
  it('accepts an adapter that has every method the feature needs', () => {
    const adapter: Adapter = {
      createVerificationToken: () => null,
      useVerificationToken: () => null,
      getUserByEmail: () => null,
    }
    expect(() => requireAdapterMethods(adapter, adapterMethodsNeededBy.emailSignIn, 'the email provider')).not.toThrow()
  })

  it('throws MissingAdapterMethods naming every missing method and what needs them', () => {
    const adapter: Adapter = { getUserByEmail: () => null }
    let thrown: unknown
    try {
      requireAdapterMethods(adapter, adapterMethodsNeededBy.emailSignIn, 'the email provider')
    } catch (err) {
      thrown = err
    }
    expect(thrown).toBeInstanceOf(MissingAdapterMethods)
    const error = thrown as MissingAdapterMethods
    expect(error.type).toBe('MissingAdapterMethods')
    // Auth.js's message exactly; what needs the methods is the hint the built-in logger prints after it.
    expect(error.message).toBe('Required adapter methods were missing: createVerificationToken, useVerificationToken')
    expect(error.cause).toBeUndefined()
    expect(hintOf(error)).toBe('the email provider needs them: add them to the adapter')
  })

  it('treats a property that is not a function as missing', () => {
    const adapter = { getSessionAndUser: 'not a function' } as unknown as Adapter
    expect(() => requireAdapterMethods(adapter, ['getSessionAndUser'], 'database sessions')).toThrow(
      MissingAdapterMethods,
    )
  })

  it('throws MissingAdapter when the config has no adapter at all', () => {
    expect(() =>
      requireAdapterMethods(undefined, adapterMethodsNeededBy.databaseSession, 'the database session strategy'),
    ).toThrow(MissingAdapter)
  })
})

describe('wrapAdapter', () => {
  it('offers all 19 methods, passing arguments, results and `this` through', async () => {
    class CountingAdapter implements Adapter {
      calls = 0
      getUser(id: string) {
        this.calls++
        return id === user.id ? user : null
      }
    }
    const inner = new CountingAdapter()
    const logger = recordingLogger()
    const wrapped = wrapAdapter(inner, logger)
    expect(adapterMethodNames.filter((name) => typeof wrapped[name] === 'function')).toHaveLength(19)
    expect(await wrapped.getUser('u1')).toBe(user)
    expect(await wrapped.getUser('u2')).toBeNull()
    expect(inner.calls).toBe(2)
    expect(logger.errors).toEqual([])
  })

  it("offers the second-factor methods, forwarding to the adapter's, and rejects one the adapter lacks", async () => {
    const logger = recordingLogger()
    const wrapped = wrapAdapter(MemoryAdapter(), logger)
    expect(factorMethodNames.filter((name) => typeof wrapped[name] === 'function')).toEqual([...factorMethodNames])
    expect(await wrapped.listFactorsByUserId('nobody')).toEqual([])
    expect(await wrapped.useRecoveryCode({ userId: 'nobody', codeHash: 'x' })).toBe(false)
    expect(adapterMethodsNeededBy.secondFactors).toEqual([...factorMethodNames])
    const bare = wrapAdapter({}, logger)
    await expect(bare.useTotpStep({ userId: 'u1', factorId: 'f1', step: 1 })).rejects.toBeInstanceOf(
      MissingAdapterMethods,
    )
  })

  it('rethrows a driver failure as an AdapterError whose cause is the original, and logs it once', async () => {
    const original = new Error('connection refused')
    const logger = recordingLogger()
    const wrapped = wrapAdapter(
      {
        getUser: async () => {
          throw original
        },
      },
      logger,
    )
    const failure = await wrapped.getUser('u1').catch((err: unknown) => err)
    expect(failure).toBeInstanceOf(AdapterError)
    expect((failure as AdapterError).type).toBe('AdapterError')
    expect((failure as AdapterError).message).toBe('adapter method getUser failed')
    expect((failure as AdapterError).cause).toMatchObject({ method: 'getUser', err: original })
    expect(logger.errors).toEqual([failure])
  })

  it('wraps a synchronous throw the same way', async () => {
    const logger = recordingLogger()
    const wrapped = wrapAdapter(
      {
        getUserByEmail: () => {
          throw new TypeError('bad')
        },
      },
      logger,
    )
    await expect(wrapped.getUserByEmail('ada@example.com')).rejects.toBeInstanceOf(AdapterError)
    expect(logger.errors).toHaveLength(1)
  })

  it('wraps a thrown non-Error in an Error, so the log has a message and a stack', async () => {
    const wrapped = wrapAdapter(
      {
        deleteSession: () => {
          // A non-Error on purpose: some drivers throw strings, and this is what the wrapper must survive.
          // eslint-disable-next-line @typescript-eslint/only-throw-error
          throw 'disk full'
        },
      },
      recordingLogger(),
    )
    const failure = await wrapped.deleteSession('token').catch((err: unknown) => err)
    expect((failure as AdapterError).cause?.err).toBeInstanceOf(Error)
    expect((failure as AdapterError).cause?.err?.message).toBe('disk full')
  })

  it('lets an AuthError the adapter threw on purpose pass through unchanged, and logs it', async () => {
    const deliberate = new OAuthAccountNotLinked('already linked to another user')
    const logger = recordingLogger()
    const wrapped = wrapAdapter(
      {
        linkAccount: async () => {
          throw deliberate
        },
      },
      logger,
    )
    const failure = await wrapped
      .linkAccount({ userId: 'u1', type: 'oauth', provider: 'p', providerAccountId: '1' })
      .catch((err: unknown) => err)
    expect(failure).toBe(deliberate)
    expect(logger.errors).toEqual([deliberate])
  })

  it("passes the memory adapter's own AdapterError for a taken email through as it is", async () => {
    const wrapped = wrapAdapter(MemoryAdapter(), recordingLogger())
    await wrapped.createUser(user)
    const failure = await wrapped.createUser({ ...user, id: 'u2' }).catch((err: unknown) => err)
    expect(failure).toBeInstanceOf(AdapterError)
    expect((failure as AuthError).message).toBe('createUser: a user with this email already exists')
  })

  it('rejects a call to a method the adapter lacks with MissingAdapterMethods naming it', async () => {
    const logger = recordingLogger()
    const wrapped = wrapAdapter({}, logger)
    const failure = await wrapped
      .useVerificationToken({ identifier: 'ada@example.com', token: 't' })
      .catch((err: unknown) => err)
    expect(failure).toBeInstanceOf(MissingAdapterMethods)
    expect((failure as MissingAdapterMethods).message).toBe(
      'Required adapter methods were missing: useVerificationToken (for this request)',
    )
    expect((failure as MissingAdapterMethods).cause).toMatchObject({ missing: ['useVerificationToken'] })
    expect(logger.errors).toEqual([failure])
  })
})
