/**
 * Error messages are what people search their logs, Auth.js's docs and its issues for: `AuthError` subclasses carry
 * the texts Auth.js gives the same errors. Checked against the real `@auth/core`: a bare error of each class, and
 * the error each configuration mistake logs. And an app's `CredentialsSignin` is one warn line, never an error.
 */
import { Auth as AuthJs } from '@auth/core'
import * as authJsErrors from '@auth/core/errors'
import AuthJsCredentials from '@auth/core/providers/credentials'
import AuthJsGitHub from '@auth/core/providers/github'
import AuthJsPasskey from '@auth/core/providers/passkey'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { warningSentences } from '../../src/warning-sentences.js'
import * as errors from '../../src/errors.js'
import { MemoryAdapter } from '../../adapters/memory.js'
import Credentials from '../../src/providers/credentials.js'
import GitHub from '../../src/providers/github.js'
import Passkey from '../../src/providers/passkey.js'
import type { AuthConfig } from '../../src/types/index.js'
import { CookieJar, origin, secret, send, signIn, testConfig } from '../support/auth-harness.js'

type ErrorClass = new (message?: string) => Error

afterEach(() => {
  vi.restoreAllMocks()
})

function isErrorClass(value: unknown): value is ErrorClass {
  return typeof value === 'function' && (value as { prototype?: unknown }).prototype instanceof Error
}

/** The error classes both libraries export under the same name. */
function sharedClasses(): Array<[string, ErrorClass, ErrorClass]> {
  const ours = errors as unknown as Record<string, unknown>
  const theirs = authJsErrors as unknown as Record<string, unknown>
  return Object.keys(theirs)
    .filter((name) => isErrorClass(theirs[name]) && isErrorClass(ours[name]))
    .map((name) => [name, ours[name] as ErrorClass, theirs[name] as ErrorClass])
}

/** Auth.js's message without the "Read more at ..." it appends to every message. */
function authJsText(error: Error | undefined): string {
  return (error?.message ?? '').replace(/\.? ?Read more at https:\/\/errors\.authjs\.dev#\w+$/, '')
}

/** The first error each library logs for the same configuration and request. */
async function firstLoggedErrors(
  ours: Omit<AuthConfig, 'logger'>,
  theirs: Record<string, unknown>,
  path = '/auth/session',
): Promise<[Error | undefined, Error | undefined]> {
  const ourErrors: Error[] = []
  const theirErrors: Error[] = []
  await send({ ...ours, logger: { error: (e) => void ourErrors.push(e), warn: () => {} } }, path)
  const logger = { error: (e: Error) => void theirErrors.push(e), warn: () => {}, debug: () => {} }
  await AuthJs(new Request(`${origin}${path}`), {
    basePath: '/auth',
    ...theirs,
    logger,
  } as unknown as Parameters<typeof AuthJs>[1])
  return [ourErrors[0], theirErrors[0]]
}

const credentials = () => Credentials({ credentials: { username: {}, password: {} }, authorize: () => null })
// Auth.js refuses database sessions for credentials alone before it looks for an adapter: an OAuth provider it is.
const github = () => GitHub({ clientId: 'id', clientSecret: 'secret' })
const authJsGitHub = () => AuthJsGitHub({ clientId: 'id', clientSecret: 'secret' })
const authJsCredentials = () =>
  AuthJsCredentials({ credentials: { username: {}, password: {} }, authorize: () => null })

describe('error messages', () => {
  it('a bare error of every class both libraries have carries the message Auth.js gives it, never an empty one', () => {
    const shared = sharedClasses()
    // Every error class @auth/core 0.41 exports: AuthError, SignInError and 32 subclasses.
    expect(shared.map(([name]) => name)).toHaveLength(34)
    for (const [name, Ours, Theirs] of shared) {
      const message = new Ours().message
      expect(message, name).not.toBe('')
      expect(message, name).toBe(new Theirs().message)
    }
    // An app's own subclass, the way Auth.js's docs show it, reads as the class it extends.
    class InvalidLogin extends errors.CredentialsSignin {
      override code = 'invalid_login'
    }
    class AuthJsInvalidLogin extends authJsErrors.CredentialsSignin {}
    expect(new InvalidLogin().message).toBe(new AuthJsInvalidLogin().message)
    // An app's own message is kept as it wrote it.
    expect(new errors.CredentialsSignin('Wrong password').message).toBe('Wrong password')
  })

  it("Authchart's own error types name themselves when made without a message", () => {
    for (const Own of [errors.InvalidConfig, errors.InvalidRequest, errors.FlowRejected, errors.FlowStoreUnavailable]) {
      const error = new Own()
      expect(error.message).toBe(error.type)
    }
  })

  it('an AuthError or SignInError made directly has the type Auth.js gives it, and is shown as Configuration', () => {
    expect(new errors.AuthError().type).toBe(new authJsErrors.AuthError().type)
    expect(new errors.AuthError('x').type).toBe('AuthError')
    expect(new errors.SignInError().type).toBe(new authJsErrors.SignInError().type)
    expect(errors.errorPageValue(new errors.AuthError('x'))).toEqual({ page: 'error', value: 'Configuration' })
  })

  it('UnknownAction: an unparsable path is logged with the text Auth.js logs for it', async () => {
    const [ours, theirs] = await firstLoggedErrors(
      { providers: [credentials()], trustHost: true, secret },
      { providers: [authJsCredentials()], trustHost: true, secret },
      '/auth/no-such-action',
    )
    expect(theirs?.name).toBe('UnknownAction')
    expect(ours?.message.startsWith(authJsText(theirs))).toBe(true)
  })

  it('MissingAdapterMethods: the list of methods follows the text Auth.js uses', async () => {
    const adapter = { getUser: () => null }
    const [ours, theirs] = await firstLoggedErrors(
      { providers: [github()], trustHost: true, secret, adapter, session: { strategy: 'database' } },
      { providers: [authJsGitHub()], trustHost: true, secret, adapter, session: { strategy: 'database' } },
    )
    expect(theirs?.name).toBe('MissingAdapterMethods')
    expect(theirs?.message.startsWith('Required adapter methods were missing: ')).toBe(true)
    // Auth.js's words and the method names, nothing after them: what needs the methods is the built-in logger's hint.
    expect(ours?.message).toMatch(/^Required adapter methods were missing: [\w, ]+$/)
  })

  // @auth/core 0.41 remembers in module state that it once saw a WebAuthn provider, and from then on asks every
  // config for `experimental.enableWebAuthn`: so its passkey cases come last.
  it.each([
    {
      name: 'MissingSecret',
      ours: { providers: [credentials()], trustHost: true, secret: [] },
      theirs: { providers: [authJsCredentials()], trustHost: true },
    },
    {
      name: 'UntrustedHost',
      ours: { providers: [credentials()], secret },
      theirs: { providers: [authJsCredentials()], secret },
    },
    {
      name: 'MissingAdapter',
      ours: { providers: [github()], trustHost: true, secret, session: { strategy: 'database' as const } },
      theirs: { providers: [authJsGitHub()], trustHost: true, secret, session: { strategy: 'database' } },
    },
    {
      name: 'MissingAuthorize',
      ours: { providers: [{ id: 'credentials', name: 'C', type: 'credentials' as const }], trustHost: true, secret },
      theirs: {
        providers: [{ id: 'credentials', name: 'C', type: 'credentials', credentials: {} }],
        trustHost: true,
        secret,
      },
    },
    {
      name: 'ExperimentalFeatureNotEnabled',
      ours: { providers: [Passkey()], trustHost: true, secret, adapter: MemoryAdapter() },
      theirs: { providers: [AuthJsPasskey({})], trustHost: true, secret, adapter: MemoryAdapter() },
    },
    {
      name: 'DuplicateConditionalUI',
      ours: {
        providers: [Passkey({ id: 'a', enableConditionalUI: true }), Passkey({ id: 'b', enableConditionalUI: true })],
        experimental: { enableWebAuthn: true },
        trustHost: true,
        secret,
        adapter: MemoryAdapter(),
      },
      theirs: {
        providers: [
          AuthJsPasskey({ id: 'a', enableConditionalUI: true }),
          AuthJsPasskey({ id: 'b', enableConditionalUI: true }),
        ],
        experimental: { enableWebAuthn: true },
        trustHost: true,
        secret,
        adapter: MemoryAdapter(),
      },
    },
    {
      name: 'MissingWebAuthnAutocomplete',
      ours: {
        // Auth.js checks the provider object as given, so the fields are set on it, not passed as options.
        providers: [{ ...Passkey(), enableConditionalUI: true, formFields: { email: { label: 'E-mail' } } }],
        experimental: { enableWebAuthn: true },
        trustHost: true,
        secret,
        adapter: MemoryAdapter(),
      },
      theirs: {
        providers: [{ ...AuthJsPasskey({}), enableConditionalUI: true, formFields: { email: { label: 'E-mail' } } }],
        experimental: { enableWebAuthn: true },
        trustHost: true,
        secret,
        adapter: MemoryAdapter(),
      },
    },
  ])('$name: the error each library logs for the same mistake has the same text', async (mistake) => {
    const [ours, theirs] = await firstLoggedErrors(mistake.ours as Omit<AuthConfig, 'logger'>, mistake.theirs)
    expect(theirs?.name).toBe(mistake.name)
    expect((ours as errors.AuthError | undefined)?.type).toBe(mistake.name)
    const text = authJsText(theirs)
    expect(text.length).toBeGreaterThan(10)
    // Exactly Auth.js's text (an app's logger, and tests written for Auth.js, compare the error); no cause added.
    expect(ours?.message).toBe(text)
    expect(ours?.cause).toBeUndefined()
  })

  it('the built-in logger prints what to do on a line of its own after the error', async () => {
    const lines: string[] = []
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(' ')))
    await send({ providers: [credentials()], trustHost: true, secret: [] }, '/auth/session')
    expect(lines[0]).toBe('[authchart][error] MissingSecret: Please define a `secret`')
    expect(lines[1]).toMatch(/^\[authchart\]\[hint\] Set AUTH_SECRET \(or the `secret` option\)/)
  })
})

describe('a CredentialsSignin thrown by the app', () => {
  function throwing(error: Error): AuthConfig {
    return testConfig({
      logger: undefined,
      providers: [
        Credentials({
          credentials: { username: {}, password: {} },
          authorize: () => {
            throw error
          },
        }),
      ],
    })
  }

  it('is one warn line on the console, without a stack, and no error line', async () => {
    const warned: string[] = []
    const failed: unknown[][] = []
    vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => void warned.push(args.map(String).join(' ')))
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void failed.push(args))
    const response = await signIn(throwing(new errors.CredentialsSignin()), new CookieJar())
    expect(new URL(response.headers.get('location') as string).searchParams.get('error')).toBe('CredentialsSignin')
    expect(failed).toEqual([])
    expect(warned).toEqual([
      `[authchart][warn][credentials-signin] ${warningSentences['credentials-signin']} provider=credentials code=credentials`,
    ])
  })

  it("carries the app's own message and code on that line", async () => {
    class InvalidLogin extends errors.CredentialsSignin {
      override code = 'invalid_login'
    }
    const warned: string[] = []
    vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => void warned.push(args.map(String).join(' ')))
    const failed = vi.spyOn(console, 'error').mockImplementation(() => {})
    await signIn(throwing(new InvalidLogin('Wrong password for this account')), new CookieJar())
    expect(failed).not.toHaveBeenCalled()
    expect(warned).toEqual([
      `[authchart][warn][credentials-signin] ${warningSentences['credentials-signin']} provider=credentials code=invalid_login message="Wrong password for this account"`,
    ])
  })
})

describe("a refused credentials sign-in and the app's own logger", () => {
  function refusing(authorize: () => null, errors: Error[], warnings: unknown[][]): AuthConfig {
    return testConfig({
      logger: { error: (e) => void errors.push(e), warn: (...args: unknown[]) => void warnings.push(args) },
      providers: [Credentials({ credentials: { username: {}, password: {} }, authorize })],
    })
  }

  it('receives the very CredentialsSignin the app threw at logger.error, as the spec and Auth.js say', async () => {
    class InvalidLogin extends errors.CredentialsSignin {
      override code = 'invalid_login'
    }
    const thrown = new InvalidLogin('Wrong password for this account')
    const logged: Error[] = []
    const warnings: unknown[][] = []
    const config = refusing(
      () => {
        throw thrown
      },
      logged,
      warnings,
    )
    const response = await signIn(config, new CookieJar())
    expect(new URL(response.headers.get('location') as string).searchParams.get('code')).toBe('invalid_login')
    expect(logged).toEqual([thrown])
    expect(logged[0]).toBe(thrown)
    // The refusal's own line, with its stable code, is still there once.
    expect(warnings.filter(([code]) => code === 'credentials-signin')).toHaveLength(1)
  })

  it('receives a CredentialsSignin when authorize returns no user, as Auth.js throws one then', async () => {
    const logged: Error[] = []
    const config = refusing(() => null, logged, [])
    await signIn(config, new CookieJar())
    expect(logged).toHaveLength(1)
    expect(logged[0]).toBeInstanceOf(errors.CredentialsSignin)
    expect((logged[0] as errors.CredentialsSignin).code).toBe('credentials')
    expect(logged[0]?.message).toBe(new authJsErrors.CredentialsSignin().message)
  })
})
