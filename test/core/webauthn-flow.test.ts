/**
 * The WebAuthn machine through `Auth()` with the memory adapter and a software authenticator
 * (test/support/soft-authenticator.ts): registration, sign-in, the configuration errors, and every refusal with its
 * log line. The honest path in a real browser is test/e2e/passkeys-browser.test.ts.
 */
import { getSessionAuthentication } from '../../src/index.js'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { MemoryAdapter, createMemoryStore } from '../../adapters/memory.js'
import Passkey from '../../src/providers/passkey.js'
import WebAuthn from '../../src/providers/webauthn.js'
import type { AuthConfig } from '../../src/types/index.js'
import { CookieJar, csrfToken, origin, recordingLogger, send, session } from '../support/auth-harness.js'
import { SoftAuthenticator, type CeremonyOverrides } from '../support/soft-authenticator.js'
import { sealTotpSecret } from '../../src/factors/secret-seal.js'
import { newTotpSecret } from '../../src/factors/totp.js'

const secret = 'webauthn-flow-test-secret-of-32-chars-at-least'

function setup(overrides: Partial<AuthConfig> = {}) {
  const store = createMemoryStore()
  const adapter = MemoryAdapter(store)
  const logger = recordingLogger()
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter,
    logger: logger.logger,
    session: { strategy: 'jwt' },
    experimental: { enableWebAuthn: true },
    providers: [Passkey()],
    ...overrides,
  }
  return { config, adapter, store, logger, authenticator: new SoftAuthenticator(origin) }
}

type Setup = ReturnType<typeof setup>

async function options(s: Setup, jar: CookieJar, query = '', provider = 'passkey') {
  const response = await send(s.config, `/auth/webauthn-options/${provider}${query}`, { jar })
  return {
    status: response.status,
    body: (await response.json()) as {
      action?: string
      options?: Record<string, unknown> & { challenge: string; allowCredentials?: unknown[] }
      error?: string
    },
  }
}

async function answer(
  s: Setup,
  jar: CookieJar,
  action: string,
  data: unknown,
  extra: Record<string, string> = {},
  provider = 'passkey',
) {
  const form: Record<string, string> = {
    action,
    data: JSON.stringify(data),
    csrfToken: await csrfToken(s.config, jar),
    callbackUrl: `${origin}/welcome`,
    ...extra,
  }
  return send(s.config, `/auth/callback/${provider}`, { jar, form })
}

async function register(s: Setup, email = 'ada@example.com', overrides: CeremonyOverrides = {}) {
  const jar = new CookieJar()
  const { body } = await options(s, jar, `?email=${encodeURIComponent(email)}`)
  expect(body.action).toBe('register')
  const response = await answer(s, jar, 'register', s.authenticator.create(body.options as never, overrides))
  return { jar, response }
}

async function authenticate(s: Setup, overrides: CeremonyOverrides = {}, jar = new CookieJar()) {
  const { body } = await options(s, jar)
  expect(body.action).toBe('authenticate')
  const response = await answer(s, jar, 'authenticate', s.authenticator.get(body.options as never, overrides))
  return { jar, response, challenge: body.options?.challenge }
}

function refusals(s: Setup): string[] {
  return s.logger.refusals.map((r) => r.code)
}

afterEach(() => {
  vi.useRealTimers()
})

describe('WebAuthn configuration', () => {
  it('refuses a WebAuthn provider without experimental.enableWebAuthn at start-up', async () => {
    const s = setup({ experimental: {} })
    const response = await send(s.config, '/auth/providers')
    expect(response.status).toBe(500)
    expect(s.logger.errors.map((e) => e.name)).toContain('ExperimentalFeatureNotEnabled')
  })

  it('refuses an adapter without the authenticator methods at start-up, naming them', async () => {
    const { createAuthenticator: _c, getAuthenticator: _g, ...partial } = MemoryAdapter()
    const s = setup({ adapter: partial })
    expect((await send(s.config, '/auth/providers')).status).toBe(500)
    expect(s.logger.errors.map((e) => e.message).join('\n')).toMatch(/getAuthenticator, createAuthenticator/)
  })

  it('refuses a WebAuthn provider without an adapter', async () => {
    const s = setup({ adapter: undefined })
    expect((await send(s.config, '/auth/providers')).status).toBe(500)
    expect(s.logger.errors.map((e) => e.name)).toContain('MissingAdapter')
  })

  it('warns once that WebAuthn is experimental, however many requests', async () => {
    const s = setup()
    await send(s.config, '/auth/providers')
    await send(s.config, '/auth/providers')
    expect(s.logger.warnings.filter((w) => w === 'experimental-webauthn')).toHaveLength(1)
  })

  it('refuses two providers with conditional UI, and conditional UI without a webauthn autocomplete field', async () => {
    const two = setup({ providers: [Passkey(), WebAuthn()] })
    expect((await send(two.config, '/auth/providers')).status).toBe(500)
    expect(two.logger.errors.map((e) => e.name)).toContain('DuplicateConditionalUI')
    const bare = setup({ providers: [Passkey({ formFields: { email: { label: 'Email', autocomplete: 'email' } } })] })
    expect((await send(bare.config, '/auth/providers')).status).toBe(500)
    expect(bare.logger.errors.map((e) => e.name)).toContain('MissingWebAuthnAutocomplete')
  })

  it('takes the relying party from a per-request function', async () => {
    const s = setup({
      providers: [
        Passkey({ getRelayingParty: () => ({ id: 'example.com', name: 'Example', origin: 'https://example.com' }) }),
      ],
    })
    const { body } = await options(s, new CookieJar(), '?email=new@example.com')
    expect(body.options).toMatchObject({ rp: { id: 'example.com', name: 'Example' } })
  })
})

describe('WebAuthn options', () => {
  it('answers register for an unknown e-mail, with the overrides of the passkey provider', async () => {
    const s = setup()
    const jar = new CookieJar()
    const { status, body } = await options(s, jar, '?email=new@example.com')
    expect(status).toBe(200)
    expect(body.action).toBe('register')
    expect(body.options).toMatchObject({
      rp: { id: 'localhost' },
      user: { name: 'new@example.com' },
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    })
    expect(body.options?.challenge).toMatch(/^[\w-]{43}$/)
    expect(jar.cookies.get('authchart.flow')).toBeTruthy()
  })

  it('answers authenticate with discoverable credentials when nobody is named', async () => {
    const s = setup()
    const { body } = await options(s, new CookieJar())
    expect(body.action).toBe('authenticate')
    expect(body.options).toMatchObject({ rpId: 'localhost', userVerification: 'required' })
    expect(body.options?.allowCredentials ?? []).toEqual([])
  })

  it('refuses to register a passkey for a stored e-mail while signed out, at the callback, storing nothing', async () => {
    const s = setup()
    const { jar: adaJar } = await register(s)
    const jar = new CookieJar()
    const { status, body } = await options(s, jar, '?email=ada@example.com&action=register')
    expect(status).toBe(200)
    const response = await answer(s, jar, 'register', s.authenticator.create(body.options as never))
    expect(response.headers.get('location')).toContain('/auth/signin?error=Signin')
    expect(await session(s.config, jar)).toBeNull()
    const ada = await s.adapter.getUserByEmail('ada@example.com')
    expect(await s.adapter.listAuthenticatorsByUserId(ada!.id)).toHaveLength(1)
    expect(await session(s.config, adaJar)).toMatchObject({ user: { email: 'ada@example.com' } })
    expect(refusals(s)).toEqual(['refused:webauthn-registration'])
  })

  it('refuses an unknown action value', async () => {
    const s = setup()
    expect((await options(s, new CookieJar(), '?action=delete')).status).toBe(400)
  })
})

describe('WebAuthn registration and sign-in', () => {
  it('registers a new user with a passkey, then signs them in with it', async () => {
    const s = setup()
    const { jar, response } = await register(s)
    expect(response.headers.get('location')).toBe(`${origin}/welcome`)
    expect(await session(s.config, jar)).toMatchObject({ user: { email: 'ada@example.com' } })
    const user = await s.adapter.getUserByEmail('ada@example.com')
    const [stored] = await s.adapter.listAuthenticatorsByUserId(user!.id)
    expect(stored).toMatchObject({ userId: user!.id, counter: 0, transports: 'internal' })
    // Auth.js's format: standard base64, and the account's providerAccountId is the credential id.
    expect(stored.credentialID).toBe(s.authenticator.credentials[0].id.toString('base64'))
    expect(await s.adapter.getAccount(stored.credentialID, 'passkey')).toMatchObject({
      type: 'webauthn',
      userId: user!.id,
    })

    const signedIn = await authenticate(s)
    expect(signedIn.response.headers.get('location')).toBe(`${origin}/welcome`)
    expect(await session(s.config, signedIn.jar)).toMatchObject({ user: { email: 'ada@example.com' } })
    expect((await s.adapter.getAuthenticator(stored.credentialID))?.counter).toBe(1)
    // The session's `amr`: the passkey with user verification, two factors; the key's kind from the stored row.
    const request = new Request(`${origin}/page`, { headers: { cookie: signedIn.jar.header() } })
    const key = stored.credentialDeviceType === 'multiDevice' ? 'swk' : 'hwk'
    expect((await getSessionAuthentication(request, s.config))?.amr).toEqual([key, 'mfa', 'user'])
    expect(refusals(s)).toEqual([])
  })

  it('lets a signed-in user add a second passkey to their own account', async () => {
    const s = setup()
    const { jar } = await register(s)
    const { body } = await options(s, jar)
    expect(body.action).toBe('register')
    // Signed in, the user's own passkeys are excluded, so the authenticator does not make a second one beside them.
    expect(body.options?.excludeCredentials).toHaveLength(1)
    const response = await answer(s, jar, 'register', s.authenticator.create(body.options as never))
    expect(response.headers.get('location')).toBe(`${origin}/welcome`)
    const user = await s.adapter.getUserByEmail('ada@example.com')
    expect(await s.adapter.listAuthenticatorsByUserId(user!.id)).toHaveLength(2)
  })

  it.each([
    ['singleDevice', 'hwk'],
    ['multiDevice', 'swk'],
  ] as const)('signs in with an authenticator row written in Auth.js format (%s: amr %s)', async (deviceType, key) => {
    const s = setup()
    // Make a credential the browser would hold, then store it the way Auth.js does, bypassing Authchart's registration.
    const scratch = setup()
    await register(scratch, 'grace@example.com')
    const credential = scratch.authenticator.credentials[0]
    s.authenticator.credentials.push(credential)
    const user = await s.adapter.createUser({ id: 'authjs-user', email: 'grace@example.com', emailVerified: null })
    const credentialID = credential.id.toString('base64')
    await s.adapter.linkAccount({
      userId: user.id,
      type: 'webauthn',
      provider: 'passkey',
      providerAccountId: credentialID,
    })
    await s.adapter.createAuthenticator({
      credentialID,
      userId: user.id,
      providerAccountId: credentialID,
      counter: 0,
      credentialBackedUp: deviceType === 'multiDevice',
      credentialPublicKey: credential.publicKeyCose.toString('base64'),
      credentialDeviceType: deviceType,
      transports: 'internal,hybrid',
    })
    const { jar, response } = await authenticate(s)
    expect(response.headers.get('location')).toBe(`${origin}/welcome`)
    expect(await session(s.config, jar)).toMatchObject({ user: { email: 'grace@example.com' } })
    // A synced passkey is a software key in the session's `amr`; a device-bound one a hardware key.
    const request = new Request(`${origin}/page`, { headers: { cookie: jar.header() } })
    expect((await getSessionAuthentication(request, s.config))?.amr).toEqual([key, 'mfa', 'user'].sort())
  })
})

describe('WebAuthn refusals', () => {
  it('refuses a replayed response (the same flow cookie and answer twice)', async () => {
    const s = setup()
    await register(s)
    const jar = new CookieJar()
    const { body } = await options(s, jar)
    const flow = jar.cookies.get('authchart.flow') as string
    const data = s.authenticator.get(body.options as never)
    expect((await answer(s, jar, 'authenticate', data)).headers.get('location')).toBe(`${origin}/welcome`)
    const replay = new CookieJar()
    replay.cookies.set('authchart.flow', flow)
    const again = await answer(s, replay, 'authenticate', data)
    expect(again.headers.get('location')).toContain('/auth/signin?error=Signin')
    expect(again.headers.get('set-cookie') ?? '').not.toMatch(/authjs\.session-token=[^;]/)
    expect(refusals(s)).toEqual(['refused:webauthn-challenge'])
  })

  it('refuses a response without its challenge (no flow cookie)', async () => {
    const s = setup()
    await register(s)
    const response = await answer(s, new CookieJar(), 'authenticate', { id: 'x', response: {} })
    expect(response.headers.get('location')).toContain('/auth/signin?error=Signin')
    expect(refusals(s)).toEqual(['refused:webauthn-challenge'])
  })

  it('refuses a challenge answered after its five minutes', async () => {
    const s = setup()
    await register(s)
    const jar = new CookieJar()
    const { body } = await options(s, jar)
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 6 * 60 * 1000)
    const response = await answer(s, jar, 'authenticate', s.authenticator.get(body.options as never))
    expect(response.headers.get('location')).toContain('/auth/signin?error=Signin')
    expect(refusals(s)).toEqual(['refused:webauthn-challenge'])
  })

  it.each([
    ['another origin', { origin: 'https://evil.example' }],
    ['another RP id', { rpId: 'evil.example' }],
    ['a tampered signature', { tamperSignature: true }],
    ['another challenge', { challenge: Buffer.alloc(32, 7).toString('base64url') }],
  ] as const)('refuses an assertion for %s', async (_, overrides) => {
    const s = setup()
    await register(s)
    const { jar, response } = await authenticate(s, overrides)
    expect(response.headers.get('location')).toContain('/auth/signin?error=Signin')
    expect(await session(s.config, jar)).toBeNull()
    expect(refusals(s)).toEqual(['refused:webauthn-verification'])
    expect(s.logger.refusals.find((r) => r.code === 'refused:webauthn-verification')?.detail.reason).toBeTruthy()
  })

  it('refuses a registration for another origin and stores nothing', async () => {
    const s = setup()
    const { jar, response } = await register(s, 'eve@example.com', { origin: 'https://evil.example' })
    expect(response.headers.get('location')).toContain('/auth/signin?error=Signin')
    expect(await session(s.config, jar)).toBeNull()
    expect(await s.adapter.getUserByEmail('eve@example.com')).toBeNull()
    expect(refusals(s)).toEqual(['refused:webauthn-verification'])
  })

  it('refuses a counter that went backwards as a possible cloned authenticator', async () => {
    const s = setup()
    await register(s)
    await authenticate(s, { counter: 5 })
    const { jar, response } = await authenticate(s, { counter: 3 })
    expect(response.headers.get('location')).toContain('/auth/signin?error=Signin')
    expect(await session(s.config, jar)).toBeNull()
    expect(refusals(s)).toEqual(['refused:webauthn-counter'])
    const user = await s.adapter.getUserByEmail('ada@example.com')
    expect((await s.adapter.listAuthenticatorsByUserId(user!.id))[0]?.counter).toBe(5)
  })

  it('refuses an unknown credential', async () => {
    const s = setup()
    await register(s)
    const jar = new CookieJar()
    const { body } = await options(s, jar)
    const data = s.authenticator.get(body.options as never)
    const response = await answer(s, jar, 'authenticate', {
      ...data,
      id: 'AAAAAAAAAAAAAAAAAAAAAA',
      rawId: 'AAAAAAAAAAAAAAAAAAAAAA',
    })
    expect(response.headers.get('location')).toContain('/auth/signin?error=Signin')
    expect(refusals(s)).toEqual(['refused:webauthn-credential'])
  })

  it('refuses a response posted without the CSRF token', async () => {
    const s = setup()
    await register(s)
    const jar = new CookieJar()
    const { body } = await options(s, jar)
    const response = await send(s.config, '/auth/callback/passkey', {
      jar,
      form: { action: 'authenticate', data: JSON.stringify(s.authenticator.get(body.options as never)) },
    })
    expect(response.headers.get('location')).toContain('/auth/signin?error=Signin')
    expect(await session(s.config, jar)).toBeNull()
    expect(refusals(s)).toEqual(['refused:csrf'])
  })

  it('refuses a registration answer to authentication options', async () => {
    const s = setup()
    const jar = new CookieJar()
    const { body } = await options(s, jar)
    const response = await answer(
      s,
      jar,
      'register',
      s.authenticator.create({ challenge: body.options!.challenge, rp: { id: 'localhost' }, user: { id: 'x' } }),
    )
    expect(response.headers.get('location')).toContain('/auth/signin?error=Signin')
    expect(refusals(s)).toEqual(['refused:webauthn-verification'])
  })

  it('refuses a response for another WebAuthn provider than the one that issued the challenge', async () => {
    const s = setup({ providers: [Passkey(), WebAuthn({ enableConditionalUI: false })] })
    await register(s)
    const jar = new CookieJar()
    const { body } = await options(s, jar)
    const response = await answer(s, jar, 'authenticate', s.authenticator.get(body.options as never), {}, 'webauthn')
    expect(response.headers.get('location')).toContain('/auth/signin?error=Signin')
    expect(refusals(s)).toEqual(['refused:provider-mismatch'])
  })

  it('answers garbage in the body with the error page, not a crash', async () => {
    const s = setup()
    const jar = new CookieJar()
    await options(s, jar, '?email=new@example.com')
    const response = await send(s.config, '/auth/callback/passkey', {
      jar,
      form: { action: 'register', data: '{not json', csrfToken: await csrfToken(s.config, jar) },
    })
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toContain('/auth/signin?error=Signin')
  })
})

describe('the webauthnChallenge cookie option', () => {
  it('names the cookie that holds the challenge, with its attributes, and the ceremony signs in through it', async () => {
    const s = setup({ cookies: { webauthnChallenge: { name: 'app.passkey-challenge', options: { maxAge: 120 } } } })
    const jar = new CookieJar()
    const response = await send(s.config, `/auth/webauthn-options/passkey?email=${encodeURIComponent('ada@x.test')}`, {
      jar,
    })
    const set = response.headers.getSetCookie().find((line) => line.startsWith('app.passkey-challenge='))
    expect(set).toMatch(/Max-Age=120/i)
    expect(jar.cookies.has('authchart.flow')).toBe(false)
    const { options: registration } = (await response.json()) as { options: Record<string, unknown> }
    const answered = await answer(s, jar, 'register', s.authenticator.create(registration as never))
    expect(answered.headers.get('location')).toBe(`${origin}/welcome`)
    expect(s.logger.warnings).not.toContain('cookie-option-unused')
  })
})

describe('a registration finishes only for the session current at the callback (#29 finding 5)', () => {
  const sessionCookie = 'authjs.session-token'

  async function beginAddingPasskey(s: Setup) {
    const { jar } = await register(s)
    const { body } = await options(s, jar)
    expect(body.action).toBe('register')
    return { jar, data: s.authenticator.create(body.options as never) }
  }

  it('refuses a registration begun signed in and answered after sign-out, and stores nothing', async () => {
    const s = setup()
    const { jar, data } = await beginAddingPasskey(s)
    // The person signs out (the session cookie goes); the next person at this browser answers the waiting flow.
    jar.cookies.delete(sessionCookie)
    const response = await answer(s, jar, 'register', data)
    expect(response.headers.get('location')).toContain('/auth/signin?error=Signin')
    expect(await session(s.config, jar)).toBeNull()
    const ada = await s.adapter.getUserByEmail('ada@example.com')
    expect(await s.adapter.listAuthenticatorsByUserId(ada!.id)).toHaveLength(1)
    expect(refusals(s)).toEqual(['refused:webauthn-session'])
  })

  it('refuses a registration begun as one user and answered signed in as another', async () => {
    const s = setup()
    const { jar, data } = await beginAddingPasskey(s)
    const other = await register(s, 'bob@example.com')
    jar.cookies.set(sessionCookie, other.jar.cookies.get(sessionCookie) as string)
    const response = await answer(s, jar, 'register', data)
    expect(response.headers.get('location')).toContain('/auth/signin?error=Signin')
    for (const email of ['ada@example.com', 'bob@example.com']) {
      const user = await s.adapter.getUserByEmail(email)
      expect(await s.adapter.listAuthenticatorsByUserId(user!.id)).toHaveLength(1)
    }
    expect(refusals(s)).toEqual(['refused:webauthn-session'])
  })

  it('refuses a sign-up begun signed out and answered once signed in', async () => {
    const s = setup()
    const { jar: adaJar } = await register(s)
    const jar = new CookieJar()
    const { body } = await options(s, jar, '?email=new@example.com')
    expect(body.action).toBe('register')
    jar.cookies.set(sessionCookie, adaJar.cookies.get(sessionCookie) as string)
    const response = await answer(s, jar, 'register', s.authenticator.create(body.options as never))
    expect(response.headers.get('location')).toContain('/auth/signin?error=Signin')
    expect(await s.adapter.getUserByEmail('new@example.com')).toBeNull()
    expect(refusals(s)).toEqual(['refused:webauthn-session'])
  })

  it('still signs in with a passkey whatever session the browser had when the options were asked for', async () => {
    const s = setup()
    const { jar } = await register(s)
    const { body } = await options(s, jar, '?action=authenticate')
    jar.cookies.delete(sessionCookie)
    const response = await answer(s, jar, 'authenticate', s.authenticator.get(body.options as never))
    expect(response.headers.get('location')).toBe(`${origin}/welcome`)
    expect(refusals(s)).toEqual([])
  })
})

describe('the options tell a signed-out caller nothing about accounts (#29 finding 10)', () => {
  /** The options without their per-request random values (challenge, user handle). */
  function shape(body: { action?: string; options?: Record<string, unknown> }) {
    const { challenge: _c, user, ...rest } = body.options ?? {}
    const { id: _id, ...named } = (user ?? {}) as Record<string, unknown>
    return { action: body.action, user: named, ...rest }
  }

  async function withStoredAda() {
    const s = setup()
    await register(s)
    const ada = await s.adapter.getUserByEmail('ada@example.com')
    await s.adapter.updateUser({ id: ada!.id, name: 'Ada Lovelace' })
    return s
  }

  it.each(['', '&action=register'])(
    'answers the same options for an address with an account and one without (query %j)',
    async (extra) => {
      const s = await withStoredAda()
      const stored = await options(s, new CookieJar(), `?email=ada@example.com${extra}`)
      const fresh = await options(s, new CookieJar(), `?email=ada@example.com${extra}`.replace('ada@', 'zed@'))
      expect(stored.status).toBe(200)
      expect(fresh.status).toBe(200)
      const freshShape = shape(fresh.body)
      // Only the typed address differs.
      expect(shape(stored.body)).toEqual({ ...freshShape, user: { ...freshShape.user, name: 'ada@example.com' } })
      expect(stored.body.action).toBe('register')
      // Neither the stored display name nor a credential id.
      expect(JSON.stringify(stored.body)).not.toContain('Ada Lovelace')
      expect(stored.body.options?.excludeCredentials ?? []).toEqual([])
      const credentialId = s.authenticator.credentials[0].id.toString('base64url')
      expect(JSON.stringify(stored.body)).not.toContain(credentialId)
    },
  )

  it('lists no credential ids to a signed-out caller asking to authenticate as a stored address', async () => {
    const s = await withStoredAda()
    const stored = await options(s, new CookieJar(), '?email=ada@example.com&action=authenticate')
    const fresh = await options(s, new CookieJar(), '?email=zed@example.com&action=authenticate')
    expect(stored.body.action).toBe('authenticate')
    expect(stored.body.options?.allowCredentials ?? []).toEqual([])
    expect(shape(stored.body)).toEqual(shape(fresh.body))
    // The discoverable passkey still signs in: the authenticator finds it without being told its id.
    const jar = new CookieJar()
    const { body } = await options(s, jar, '?email=ada@example.com&action=authenticate')
    const response = await answer(s, jar, 'authenticate', s.authenticator.get(body.options as never))
    expect(response.headers.get('location')).toBe(`${origin}/welcome`)
    expect(await session(s.config, jar)).toMatchObject({ user: { email: 'ada@example.com' } })
  })

  it('refuses, at the callback, a sign-up whose address was taken after its options were built', async () => {
    const s = setup()
    const jar = new CookieJar()
    const { body } = await options(s, jar, '?email=late@example.com')
    await s.adapter.createUser({ id: 'late', email: 'late@example.com', emailVerified: null })
    const response = await answer(s, jar, 'register', s.authenticator.create(body.options as never))
    expect(response.headers.get('location')).toContain('/auth/signin?error=Signin')
    expect(await s.adapter.listAuthenticatorsByUserId('late')).toHaveLength(0)
    expect(refusals(s)).toEqual(['refused:webauthn-registration'])
  })
})

describe('a passkey sign-in of a user with an authenticator app (docs/second-factors.md, "Policy")', () => {
  /** Ada registers a passkey, then enrols an authenticator app (stored as the enrolment stores it). */
  async function adaWithApp(s: Setup, provider: string) {
    const jar = new CookieJar()
    const { body } = await options(s, jar, `?email=${encodeURIComponent('ada@example.com')}`, provider)
    await answer(s, jar, 'register', s.authenticator.create(body.options as never), {}, provider)
    const user = await s.adapter.getUserByEmail('ada@example.com')
    if (!user) throw new Error('the registration stored no user')
    const factorId = 'totp-1'
    await s.adapter.createFactor?.({
      id: factorId,
      userId: user.id,
      type: 'totp',
      secret: sealTotpSecret([secret], { userId: user.id, factorId }, newTotpSecret()),
      lastUsedStep: null,
      label: null,
      createdAt: new Date(),
    })
  }

  async function signInWithPasskey(s: Setup, provider: string, overrides: CeremonyOverrides = {}) {
    const jar = new CookieJar()
    const { body } = await options(s, jar, '', provider)
    expect(body.action).toBe('authenticate')
    const response = await answer(
      s,
      jar,
      'authenticate',
      s.authenticator.get(body.options as never, overrides),
      {},
      provider,
    )
    const signedIn = await getSessionAuthentication(
      new Request(`${origin}/page`, { headers: { cookie: jar.header() } }),
      s.config,
    )
    return { location: response.headers.get('location'), amr: signedIn?.amr ?? null }
  }

  it('a passkey with user verification counts as two factors: no challenge, and the amr says so', async () => {
    const s = setup()
    await adaWithApp(s, 'passkey')
    const { location, amr } = await signInWithPasskey(s, 'passkey')
    expect(location).toBe(`${origin}/welcome`)
    expect(amr).toEqual([expect.stringMatching(/^(hwk|swk)$/), 'mfa', 'user'])
    expect(refusals(s)).toEqual([])
  })

  it('with passkeyCountsAsTwo: false the same sign-in is challenged, and no session is issued before the answer', async () => {
    const s = setup({ secondFactor: { passkeyCountsAsTwo: false } })
    await adaWithApp(s, 'passkey')
    const { location, amr } = await signInWithPasskey(s, 'passkey')
    expect(location).toBe(`${origin}/auth/second-factor`)
    expect(amr).toBeNull()
  })

  it('a passkey assertion without user verification (a provider that allows one) is challenged', async () => {
    const s = setup({
      providers: [
        WebAuthn({
          authenticationOptions: { userVerification: 'preferred' },
          verifyAuthenticationOptions: { requireUserVerification: false },
        }),
      ],
    })
    await adaWithApp(s, 'webauthn')
    const { location, amr } = await signInWithPasskey(s, 'webauthn', { userVerified: false })
    expect(location).toBe(`${origin}/auth/second-factor`)
    expect(amr).toBeNull()
    // The same provider with the UV flag set: two factors, no challenge.
    expect((await signInWithPasskey(s, 'webauthn')).location).toBe(`${origin}/welcome`)
  })
})
