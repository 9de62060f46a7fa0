/**
 * Factor enrolment and management through `Auth()`, as a browser and as an app with its own UI would drive it, on a
 * real adapter (the caller's: memory, PostgreSQL). Codes are made by the `otpauth` library from the secret the page
 * shows, as an authenticator app would: the test never asks Authchart for a code.
 */
import { Secret, TOTP } from 'otpauth'
import { afterEach, expect, it, vi } from 'vitest'
import { hashRecoveryCode } from '../../src/factors/recovery-codes.js'
import type { Adapter, AdapterFactor } from '../../src/types/adapters.js'
import type { AuditRecord, AuthConfig, FactorMessage } from '../../src/types/index.js'
import Credentials from '../../src/providers/credentials.js'
import { getSessionAuthentication, requireRecentAuth } from '../../src/index.js'
import type { AdapterUser } from '../../src/types/adapters.js'
import { MemorySessionStore } from '../../src/flow/stores/logout.js'
import {
  CookieJar,
  csrfToken,
  origin,
  secret as appSecret,
  send,
  session,
  signIn,
  testConfig,
} from '../support/auth-harness.js'
import { sealPendingSignIn } from '../../src/factors/enrolment-pending-sign-in.js'

/** A fresh adapter, and the two users in it that the suite's credentials provider signs in by name. */
export type FactorAdapterFactory = () => Promise<{ adapter: Adapter; users: { ada: AdapterUser; alan: AdapterUser } }>

/** Creates Ada and Alan in `adapter` (the store chooses their ids). */
export async function withUsers(adapter: Adapter): Promise<Awaited<ReturnType<FactorAdapterFactory>>> {
  const create = adapter.createUser?.bind(adapter)
  if (!create) throw new Error('the adapter cannot create users')
  const ada = await create({ id: '', email: 'ada@example.com', emailVerified: null, name: 'Ada Lovelace' })
  const alan = await create({ id: '', email: 'alan@example.com', emailVerified: null, name: 'Alan Turing' })
  return { adapter, users: { ada, alan } }
}

/** What an authenticator app shows now for `secret`. */
function appCode(secret: string, offsetSteps = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + offsetSteps * 30_000 })
}

/** The code that is certainly wrong now: the one of ten steps ago. */
const staleCode = (secret: string) => appCode(secret, -10)

function site(
  { adapter, users }: Awaited<ReturnType<FactorAdapterFactory>>,
  secondFactor?: AuthConfig['secondFactor'],
  /** The session strategy (JWT by default); `ownAuthTime: false` leaves `auth_time` to Authchart (no app callback). */
  options: {
    strategy?: 'jwt' | 'database'
    ownAuthTime?: boolean
    redirect?: NonNullable<AuthConfig['callbacks']>['redirect']
  } = {},
) {
  const enrolled: FactorMessage[] = []
  const audited: AuditRecord[] = []
  const removed: FactorMessage[] = []
  // The app records the sign-in time in the JWT, the `auth_time` the last-factor removal asks for; a test moves it.
  const signInClock = { offsetSeconds: 0 }
  const config = testConfig({
    adapter,
    providers: [
      Credentials({
        credentials: { username: {}, password: {} },
        authorize: ({ username }) => (username === 'ada' ? users.ada : username === 'alan' ? users.alan : null),
      }),
    ],
    session: { strategy: options.strategy ?? 'jwt' },
    // A database session records its sign-in (auth_time, amr) for the step-up in the session store.
    ...(options.strategy === 'database' ? { sessionManagement: { store: new MemorySessionStore() } } : {}),
    ...(secondFactor === undefined ? {} : { secondFactor }),
    audit: (record) => void audited.push(record),
    events: {
      factorEnrolled: (message) => void enrolled.push(message),
      factorRemoved: (message) => void removed.push(message),
    },
    callbacks: {
      ...(options.redirect ? { redirect: options.redirect } : {}),
      ...(options.ownAuthTime === false
        ? {}
        : {
            jwt: ({ token, user }) => {
              if (user) token.auth_time = Math.floor(Date.now() / 1000) + signInClock.offsetSeconds
              return token
            },
          }),
    },
  })
  return { config, enrolled, removed, audited, signInClock, adapter, ada: users.ada.id, alan: users.alan.id }
}

type Site = ReturnType<typeof site>

async function post(s: Site, jar: CookieJar, form: Record<string, string>, json = false): Promise<Response> {
  const token = await csrfToken(s.config, jar)
  if (json)
    return send(s.config, '/auth/factors', {
      jar,
      json: { ...form, csrfToken: token },
      headers: { accept: 'application/json' },
    })
  return send(s.config, '/auth/factors', { jar, form: { ...form, csrfToken: token } })
}

function hidden(html: string, name: string): string {
  const found = new RegExp(`name="${name}" value="([^"]*)"`).exec(html)
  if (!found) throw new Error(`no hidden ${name} on the page`)
  return found[1] ?? ''
}

/** The key the enrolment page shows, in groups of four. */
function shownKey(html: string): string {
  const found = /<span class="key">([A-Z2-7 ]+)<\/span>/.exec(html)
  if (!found) throw new Error('no key on the page')
  return (found[1] ?? '').replace(/ /g, '')
}

function shownCodes(html: string): string[] {
  return [...html.matchAll(/<li>([0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4})<\/li>/g)].map((m) => m[1] ?? '')
}

async function factorsOf(adapter: Adapter, userId: string): Promise<AdapterFactor[]> {
  const list = adapter.listFactorsByUserId
  if (!list) throw new Error('the adapter stores no factors')
  return list.call(adapter, userId)
}

/** Everything the server log got, as one text: for "no secret or code in a log". */
function logText(s: Site): string {
  const { errors, warnings, refusals } = s.config.recorded
  return JSON.stringify({
    errors: errors.map((e) => `${e.message} ${JSON.stringify(e.cause ?? null)}`),
    warnings,
    refusals,
  })
}

/** Answers the challenge of the sign-in stopped in `jar` (JSON when asked, as an app with its own UI). */
async function answerChallenge(
  s: Site,
  jar: CookieJar,
  form: Record<string, string>,
  json = false,
  from: CookieJar = jar,
): Promise<Response> {
  const token = await csrfToken(s.config, from)
  if (json)
    return send(s.config, '/auth/second-factor', {
      jar,
      json: { ...form, csrfToken: token },
      headers: { accept: 'application/json' },
    })
  return send(s.config, '/auth/second-factor', { jar, form: { ...form, csrfToken: token } })
}

/** Enrols a TOTP factor for whoever is signed in in `jar`; answers its secret and recovery codes. */
async function enrolTotp(s: Site, jar: CookieJar): Promise<{ secret: string; recoveryCodes: string[] }> {
  const started = (await (await post(s, jar, { intent: 'start' }, true)).json()) as {
    enrolment: string
    secret: string
  }
  const confirmed = await post(
    s,
    jar,
    { intent: 'confirm', enrolment: started.enrolment, code: appCode(started.secret) },
    true,
  )
  expect(confirmed.status).toBe(200)
  const { recoveryCodes } = (await confirmed.json()) as { recoveryCodes: string[] }
  return { secret: started.secret, recoveryCodes }
}

/** Where a sign-in answer sends the browser, as a path and query on the site. */
function sentTo(answer: Response): string {
  const location = new URL(answer.headers.get('location') ?? '', 'http://localhost:3000')
  return `${location.pathname}${location.search}`
}

/** The sign-in method the session of `jar` records, or null when `jar` holds no session. */
async function signInMethods(s: Site, jar: CookieJar): Promise<string[] | null> {
  const signedIn = await getSessionAuthentication(
    new Request('http://localhost:3000/', { headers: { cookie: jar.header() } }),
    s.config,
  )
  return signedIn === null ? null : (signedIn.amr ?? [])
}

/** The action of the page's form that carries `intent`, as a path and query on the site. */
function formAction(html: string, intent: string): string {
  for (const form of html.matchAll(/<form action="([^"]*)" method="POST">(.*?)<\/form>/gs))
    if (form[2]?.includes(`name="intent" value="${intent}"`))
      return sentTo(new Response(null, { headers: { location: (form[1] ?? '').replace(/&amp;/g, '&') } }))
  throw new Error(`no ${intent} form on the page`)
}

/** The page's "Continue" link after the recovery codes, or null when it has none. */
function onwardLink(html: string): string | null {
  const found = /<a class="button" href="([^"]*)">Continue<\/a>/.exec(html)
  return found ? (found[1] ?? '').replace(/&amp;/g, '&') : null
}

/**
 * Enrols in the built-in page as a browser does, from `path` (the factors page the sign-in sent `jar` to): the start
 * form, then the first code in the enrolment form; answers the last page (the recovery codes, or a redirect).
 */
async function enrolInPage(s: Site, jar: CookieJar, path: string): Promise<Response> {
  const list = await send(s.config, path, { jar })
  expect(list.status).toBe(200)
  const startAt = formAction(await list.text(), 'start')
  const started = await send(s.config, startAt, {
    jar,
    form: { intent: 'start', csrfToken: await csrfToken(s.config, jar) },
  })
  const enrolPageHtml = await started.text()
  return send(s.config, formAction(enrolPageHtml, 'confirm'), {
    jar,
    form: {
      intent: 'confirm',
      enrolment: hidden(enrolPageHtml, 'enrolment'),
      code: appCode(shownKey(enrolPageHtml)),
      csrfToken: await csrfToken(s.config, jar),
    },
  })
}

const enrolPage = `/auth/factors?callbackUrl=${encodeURIComponent('http://localhost:3000/app')}`

/** Ada enrols a TOTP factor (signed in without one), signs out, and signs in again: stopped at the challenge. */
async function enrolledAndStopped(s: Site): Promise<{ jar: CookieJar; secret: string; codes: string[] }> {
  const first = new CookieJar()
  await signIn(s.config, first, 'ada')
  const { secret, recoveryCodes } = await enrolTotp(s, first)
  const jar = new CookieJar()
  const stopped = await signIn(s.config, jar, 'ada')
  expect(stopped.status).toBe(302)
  expect(stopped.headers.get('location')).toBe('http://localhost:3000/auth/second-factor')
  expect(jar.cookies.has('authjs.session-token')).toBe(false)
  return { jar, secret, codes: recoveryCodes }
}

/** The scenarios, on a fresh adapter from `makeAdapter` each. */
export function factorEnrolmentSuite(makeAdapter: FactorAdapterFactory): void {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('enrols a TOTP factor in the page: pending until a valid first code, then 10 recovery codes shown once', async () => {
    const s = site(await makeAdapter())
    const adapter = s.adapter
    const visitor = new CookieJar()
    const away = await send(s.config, '/auth/factors', { jar: visitor })
    expect(away.status).toBe(302)
    expect(away.headers.get('location')).toContain('/auth/signin?callbackUrl=')

    const ada = new CookieJar()
    await signIn(s.config, ada, 'ada')
    const list = await send(s.config, '/auth/factors', { jar: ada })
    expect(list.status).toBe(200)
    expect(await list.text()).toContain('No authenticator app is set up yet.')

    const started = await post(s, ada, { intent: 'start' })
    expect(started.status).toBe(200)
    const page = await started.text()
    expect(page).toMatch(/<div class="qr"><svg role="img" aria-label="QR code for your authenticator app"/)
    const secret = shownKey(page)
    expect(secret).toMatch(/^[A-Z2-7]{32}$/)
    const enrolment = hidden(page, 'enrolment')
    expect(enrolment).not.toContain(secret)
    // Started is not enrolled: nothing stored, nothing announced.
    expect(await factorsOf(adapter, s.ada)).toEqual([])
    expect(s.enrolled).toEqual([])

    const wrong = await post(s, ada, { intent: 'confirm', enrolment, code: staleCode(secret) })
    expect(wrong.status).toBe(400)
    const again = await wrong.text()
    expect(again).toContain('That code did not match.')
    expect(shownKey(again)).toBe(secret)
    expect(await factorsOf(adapter, s.ada)).toEqual([])
    expect(s.config.recorded.warnings.filter((w) => w === 'refused:factor-code')).toHaveLength(1)

    const done = await post(s, ada, { intent: 'confirm', enrolment, code: appCode(secret), label: ' my  phone ' })
    expect(done.status).toBe(200)
    const codes = shownCodes(await done.text())
    expect(codes).toHaveLength(10)
    const stored = await factorsOf(adapter, s.ada)
    expect(stored.map((f) => f.type).sort()).toEqual(['recovery-codes', 'totp'])
    const totp = stored.find((f) => f.type === 'totp')
    expect(totp?.label).toBe('my phone')
    // Sealed at rest, and the confirming code's step spent: it cannot pass a sign-in too.
    expect(totp?.secret).not.toContain(secret)
    expect(totp?.lastUsedStep).toBe(Math.floor(Date.now() / 30_000))
    expect(s.enrolled.map((m) => [m.userId, m.factor.type])).toEqual([
      [s.ada, 'totp'],
      [s.ada, 'recovery-codes'],
    ])
    // The audit trail has each enrolment: the user, the factor's type, never its secret or codes.
    const changes = s.audited.filter((r) => r.type === 'factor-change')
    expect(changes.map((r) => [r.userId, r.method, r.outcome])).toEqual([
      [s.ada, 'totp', 'enrolled'],
      [s.ada, 'recovery-codes', 'enrolled'],
    ])
    expect(JSON.stringify(s.audited)).not.toContain(secret)

    // The same token again (a double submit, a replay) makes no second factor.
    const replay = await post(s, ada, { intent: 'confirm', enrolment, code: appCode(secret, 1) })
    expect(replay.status).toBe(400)
    expect(await factorsOf(adapter, s.ada)).toHaveLength(2)

    // The list now shows both, each with its remove form.
    const listed = await (await send(s.config, '/auth/factors', { jar: ada })).text()
    expect(listed).toContain('Authenticator app: my phone')
    expect(listed.match(/name="intent" value="remove"/g)).toHaveLength(2)

    // Recovery codes are stored hashed and work once; regenerating invalidates the old set.
    const useCode = adapter.useRecoveryCode?.bind(adapter)
    if (!useCode) throw new Error('the adapter has no useRecoveryCode')
    expect(await useCode({ userId: s.ada, codeHash: hashRecoveryCode(s.ada, codes[0] ?? '') ?? '' })).toBe(true)
    const regenerated = await post(s, ada, { intent: 'regenerate' })
    expect(regenerated.status).toBe(200)
    const fresh = shownCodes(await regenerated.text())
    expect(fresh).toHaveLength(10)
    expect(fresh.some((code) => codes.includes(code))).toBe(false)
    expect(await useCode({ userId: s.ada, codeHash: hashRecoveryCode(s.ada, codes[1] ?? '') ?? '' })).toBe(false)
    expect(await useCode({ userId: s.ada, codeHash: hashRecoveryCode(s.ada, fresh[0] ?? '') ?? '' })).toBe(true)
    expect((await factorsOf(adapter, s.ada)).filter((f) => f.type === 'recovery-codes')).toHaveLength(1)

    // Nothing secret reached the log: not the key, not a code, not the enrolment token.
    const log = logText(s)
    for (const value of [secret, enrolment, ...codes, ...fresh]) expect(log).not.toContain(value)
  })

  it('refuses a factor change without a session or the CSRF token, and across users', async () => {
    const s = site(await makeAdapter())
    const adapter = s.adapter
    const ada = new CookieJar()
    await signIn(s.config, ada, 'ada')
    const started = (await (await post(s, ada, { intent: 'start' }, true)).json()) as {
      enrolment: string
      secret: string
    }

    // No CSRF token: refused before anything is read.
    const forged = await send(s.config, '/auth/factors', {
      jar: ada,
      form: { intent: 'confirm', enrolment: started.enrolment, code: appCode(started.secret) },
    })
    expect(forged.status).toBe(403)
    expect(await factorsOf(adapter, s.ada)).toEqual([])

    // No session: the CSRF cookie alone does not make a user.
    const visitor = new CookieJar()
    const anonymous = await post(s, visitor, { intent: 'start' }, true)
    expect(anonymous.status).toBe(401)

    // Alan cannot confirm Ada's enrolment: the token is bound to her.
    const alan = new CookieJar()
    await signIn(s.config, alan, 'alan')
    const stolen = await post(
      s,
      alan,
      { intent: 'confirm', enrolment: started.enrolment, code: appCode(started.secret) },
      true,
    )
    expect(stolen.status).toBe(400)
    expect(await stolen.json()).toMatchObject({ error: 'EnrolmentExpired' })
    expect(await factorsOf(adapter, s.alan)).toEqual([])
    expect(await factorsOf(adapter, s.ada)).toEqual([])

    const confirmed = await post(
      s,
      ada,
      { intent: 'confirm', enrolment: started.enrolment, code: appCode(started.secret) },
      true,
    )
    expect(confirmed.status).toBe(200)
    const adas = await factorsOf(adapter, s.ada)
    expect(adas).toHaveLength(2)

    // Alan cannot list, remove or regenerate Ada's factors: her ids are unknown to him.
    const alansList = (await (
      await send(s.config, '/auth/factors', { jar: alan, headers: { accept: 'application/json' } })
    ).json()) as { factors: unknown[] }
    expect(alansList.factors).toEqual([])
    for (const factor of adas) {
      const attempt = await post(s, alan, { intent: 'remove', factor: factor.id }, true)
      expect(attempt.status).toBe(404)
      expect(await attempt.json()).toMatchObject({ error: 'UnknownFactor' })
    }
    expect((await post(s, alan, { intent: 'regenerate' }, true)).status).toBe(404)
    expect(await factorsOf(adapter, s.ada)).toHaveLength(2)
    expect(s.removed).toEqual([])
    expect(s.config.recorded.warnings.filter((w) => w === 'refused:factor-unknown')).toHaveLength(3)
    expect(s.config.recorded.warnings.filter((w) => w === 'refused:factor-enrolment')).toHaveLength(1)
  })

  it('removes a factor; the last one only after a recent sign-in, and it takes the recovery codes along', async () => {
    const s = site(await makeAdapter())
    const adapter = s.adapter
    // Signed in ten minutes ago, as far as the session knows.
    s.signInClock.offsetSeconds = -600
    const ada = new CookieJar()
    await signIn(s.config, ada, 'ada')
    const enrol = async (label: string) => {
      const started = (await (await post(s, ada, { intent: 'start' }, true)).json()) as {
        enrolment: string
        secret: string
        otpauthUri: string
        qrSvg: string
      }
      expect(started.otpauthUri).toMatch(/^otpauth:\/\/totp\/localhost%3A3000:ada%40example\.com\?/)
      expect(started.qrSvg).toMatch(/^<svg /)
      const answer = await post(
        s,
        ada,
        { intent: 'confirm', enrolment: started.enrolment, code: appCode(started.secret), label },
        true,
      )
      expect(answer.status).toBe(200)
      const confirmed = (await answer.json()) as {
        factor: { id: string; label: string }
        recoveryCodes: string[] | null
      }
      return { ...confirmed, secret: started.secret }
    }
    const phone = await enrol('phone')
    expect(phone.recoveryCodes).toHaveLength(10)
    const tablet = await enrol('tablet')
    // Codes come with the first factor only.
    expect(tablet.recoveryCodes).toBeNull()
    expect(tablet.factor.label).toBe('tablet')

    // Not the last: goes at once, whatever the sign-in's age.
    const first = await post(s, ada, { intent: 'remove', factor: phone.factor.id }, true)
    expect(first.status).toBe(200)
    expect(s.removed.map((m) => m.factor.id)).toEqual([phone.factor.id])

    // The last, with a sign-in ten minutes old: refused, in the page too, and nothing removed.
    const stale = await post(s, ada, { intent: 'remove', factor: tablet.factor.id })
    expect(stale.status).toBe(403)
    const stalePage = await stale.text()
    expect(stalePage).toContain('To remove your last authenticator app, sign in again first.')
    expect(stalePage).toContain('/auth/signin?callbackUrl=')
    expect(await factorsOf(adapter, s.ada)).toHaveLength(2)
    expect(s.config.recorded.warnings.filter((w) => w === 'refused:factor-reauth')).toHaveLength(1)

    // A fresh sign-in, which now stops at the challenge and passes it with the tablet's next code (its current step
    // was spent on the enrolment): the last factor goes, and the recovery codes with it.
    s.signInClock.offsetSeconds = 0
    const stopped = await signIn(s.config, ada, 'ada')
    expect(stopped.headers.get('location')).toBe('http://localhost:3000/auth/second-factor')
    expect((await answerChallenge(s, ada, { factor: 'otp', code: appCode(tablet.secret, 1) })).status).toBe(302)
    const last = await post(s, ada, { intent: 'remove', factor: tablet.factor.id })
    expect(last.status).toBe(302)
    expect(await factorsOf(adapter, s.ada)).toEqual([])
    expect(s.removed.map((m) => m.factor.type).sort()).toEqual(['recovery-codes', 'totp', 'totp'])
  })

  it('answers bad input with a clear error, never a 500', async () => {
    const s = site(await makeAdapter())
    const ada = new CookieJar()
    await signIn(s.config, ada, 'ada')
    const cases: Array<Record<string, string>> = [
      { intent: 'launch' },
      { intent: 'confirm', enrolment: 'not.a.token', code: '123456' },
      { intent: 'confirm', enrolment: 'x'.repeat(3000), code: '123456' },
      { intent: 'remove', factor: '' },
    ]
    for (const form of cases) {
      const answer = await post(s, ada, form, true)
      expect(answer.status).toBeGreaterThanOrEqual(400)
      expect(answer.status).toBeLessThan(500)
      expect(await answer.json()).toHaveProperty('error')
    }
    const page = await post(s, ada, { intent: 'confirm', enrolment: 'expired', code: '1' })
    expect(page.status).toBe(400)
    expect(await page.text()).toContain('This setup has expired.')
    expect(s.config.recorded.errors).toEqual([])
  })

  it('stops a sign-in of an enrolled user at the challenge; a code finishes it once, a replay or an older code does not', async () => {
    const s = site(await makeAdapter())
    const { jar, secret } = await enrolledAndStopped(s)
    const page = await send(s.config, '/auth/second-factor', { jar })
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('autocomplete="one-time-code"')
    // The enrolment spent the current step: the challenge takes the next one (one step of drift).
    const code = appCode(secret, 1)
    const done = await answerChallenge(s, jar, { factor: 'otp', code })
    expect(done.status).toBe(302)
    expect(done.headers.get('location')).toBe('http://localhost:3000/')
    expect(jar.cookies.has('authjs.session-token')).toBe(true)
    const session = (await (await send(s.config, '/auth/session', { jar })).json()) as { user?: { email?: string } }
    expect(session.user?.email).toBe('ada@example.com')
    // The session records both factors (docs/step-up.md): the password and the authenticator app's code.
    const signedIn = await getSessionAuthentication(
      new Request('http://localhost:3000/', { headers: { cookie: jar.header() } }),
      s.config,
    )
    expect(signedIn?.amr).toEqual(['mfa', 'otp', 'pwd'])

    // A second sign-in: the same code again, then the previous window's, are refused; neither is in any log.
    const again = new CookieJar()
    await signIn(s.config, again, 'ada')
    expect((await answerChallenge(s, again, { factor: 'otp', code }, true)).status).toBe(401)
    expect((await answerChallenge(s, again, { factor: 'otp', code: appCode(secret, 0) }, true)).status).toBe(401)
    expect(again.cookies.has('authjs.session-token')).toBe(false)
    expect(s.config.recorded.warnings.filter((w) => w === 'refused:second-factor-code')).toHaveLength(2)
    expect(logText(s)).not.toContain(code)
    expect(logText(s)).not.toContain(secret)
  })

  it('takes a recovery code once; refuses another user’s code and a challenge replayed after it was passed', async () => {
    const s = site(await makeAdapter())
    const { jar, codes, secret } = await enrolledAndStopped(s)
    // The cookie of the stopped sign-in, kept to replay the challenge after it was passed.
    const replay = new CookieJar()
    for (const [name, value] of jar.cookies) replay.cookies.set(name, value)
    const recovery = codes[0] ?? ''
    const done = await answerChallenge(s, jar, { factor: 'recovery', code: recovery }, true)
    expect(done.status).toBe(200)
    expect(await done.json()).toEqual({ url: 'http://localhost:3000/' })

    const replayed = await answerChallenge(s, replay, { factor: 'otp', code: appCode(secret, 1) }, true)
    expect(replayed.status).not.toBe(200)
    expect(replay.cookies.has('authjs.session-token')).toBe(false)

    const again = new CookieJar()
    await signIn(s.config, again, 'ada')
    expect((await answerChallenge(s, again, { factor: 'recovery', code: recovery }, true)).status).toBe(401)

    // Alan enrols his own factor; his code does not pass Ada's challenge.
    const alan = new CookieJar()
    await signIn(s.config, alan, 'alan')
    const started = (await (await post(s, alan, { intent: 'start' }, true)).json()) as {
      enrolment: string
      secret: string
    }
    await post(s, alan, { intent: 'confirm', enrolment: started.enrolment, code: appCode(started.secret) }, true)
    expect((await answerChallenge(s, again, { factor: 'otp', code: appCode(started.secret, 1) }, true)).status).toBe(
      401,
    )
    expect(again.cookies.has('authjs.session-token')).toBe(false)
    expect(logText(s)).not.toContain(recovery)
  })

  it('ends a challenge after five wrong codes; of 50 answers at once, at most five reach the check', async () => {
    const s = site(await makeAdapter())
    const { jar, secret } = await enrolledAndStopped(s)
    const statuses: number[] = []
    for (let i = 0; i < 5; i++)
      statuses.push((await answerChallenge(s, jar, { factor: 'otp', code: '000000' }, true)).status)
    expect(statuses).toEqual([401, 401, 401, 401, 403])
    // Ended: even the right code no longer helps.
    expect((await answerChallenge(s, jar, { factor: 'otp', code: appCode(secret, 1) }, true)).status).toBe(400)
    expect(s.config.recorded.warnings.filter((w) => w === 'refused:second-factor-limit')).toHaveLength(1)

    // 50 wrong answers at once on one stopped sign-in (a cookie flow store hands the same snapshot to each).
    const parallel = new CookieJar()
    await signIn(s.config, parallel, 'ada')
    const token = await csrfToken(s.config, parallel)
    const before = s.config.recorded.warnings.filter((w) => w === 'refused:second-factor-code').length
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        send(s.config, '/auth/second-factor', {
          jar: new CookieJar().take(new Response(null)),
          headers: { accept: 'application/json', cookie: parallel.header() },
          json: { factor: 'otp', code: '000000', csrfToken: token },
        }),
      ),
    )
    const checked = s.config.recorded.warnings.filter((w) => w === 'refused:second-factor-code').length - before
    expect(checked + answers.filter((a) => a.status === 403).length).toBe(50)
    expect(checked).toBeLessThanOrEqual(5)
  })

  it("policy 'required': a user without a factor is held and sent to enrol at every sign-in until enrolled, then challenged", async () => {
    const s = site(await makeAdapter(), 'required')
    for (let attempt = 0; attempt < 2; attempt++) {
      const jar = new CookieJar()
      // The app asked to come back to /app: the sign-in goes to the enrolment page instead, /app kept for after it.
      const answer = await signIn(s.config, jar, 'ada', 'x', { callbackUrl: 'http://localhost:3000/app' })
      expect(answer.status).toBe(302)
      expect(sentTo(answer)).toBe(enrolPage)
      // Held, not signed in: no session to read until a factor is enrolled; the enrolment page accepts it.
      expect(await signInMethods(s, jar)).toBeNull()
      const page = await send(s.config, sentTo(answer), { jar })
      expect(page.status).toBe(200)
      expect(await page.text()).toContain('No authenticator app is set up yet.')
    }
    // A JSON sign-in (an app with its own UI) is sent to the same place, not to the app.
    const viaJson = new CookieJar()
    const token = await csrfToken(s.config, viaJson)
    const json = await send(s.config, '/auth/callback/credentials', {
      jar: viaJson,
      json: { username: 'ada', password: 'x', csrfToken: token, callbackUrl: 'http://localhost:3000/app' },
      headers: { accept: 'application/json' },
    })
    const jsonTarget =
      json.status === 200 ? ((await json.json()) as { url?: string }).url : json.headers.get('location')
    expect(new URL(jsonTarget ?? '', 'http://localhost:3000').pathname).toBe('/auth/factors')

    // Enrolled: the next sign-in stops at the challenge, and its code gives a session of two factors.
    const first = new CookieJar()
    await signIn(s.config, first, 'ada')
    const { secret } = await enrolTotp(s, first)
    const jar = new CookieJar()
    const stopped = await signIn(s.config, jar, 'ada', 'x', { callbackUrl: 'http://localhost:3000/app' })
    expect(sentTo(stopped)).toBe('/auth/second-factor')
    expect(await signInMethods(s, jar)).toBeNull()
    const done = await answerChallenge(s, jar, { factor: 'otp', code: appCode(secret, 1) })
    expect(done.headers.get('location')).toBe('http://localhost:3000/app')
    expect(await signInMethods(s, jar)).toEqual(['mfa', 'otp', 'pwd'])
    // Alan, also without a factor, is sent to enrol as well: the policy is everybody's.
    const alan = new CookieJar()
    expect(sentTo(await signIn(s.config, alan, 'alan', 'x', { callbackUrl: 'http://localhost:3000/app' }))).toBe(
      enrolPage,
    )
    expect(s.config.recorded.errors).toEqual([])
  })

  it("policy 'required': the enrolment goes on to the callback URL the held sign-in started with, never off-site", async () => {
    const s = site(await makeAdapter(), 'required', { ownAuthTime: false })
    const jar = new CookieJar()
    const answer = await signIn(s.config, jar, 'ada', 'x', { callbackUrl: '/dashboard' })
    const factorsPage = `/auth/factors?callbackUrl=${encodeURIComponent('http://localhost:3000/dashboard')}`
    expect(sentTo(answer)).toBe(factorsPage)
    const done = await enrolInPage(s, jar, factorsPage)
    // The first factor: its recovery codes are shown once, and the page goes on to where the sign-in was going.
    expect(done.status).toBe(200)
    const codesPage = await done.text()
    expect(shownCodes(codesPage)).toHaveLength(10)
    expect(onwardLink(codesPage)).toBe('http://localhost:3000/dashboard')
    expect(await signInMethods(s, jar)).toEqual(['mfa', 'otp', 'pwd'])
    // A second authenticator app, from the same page: no codes to show, so the confirmation redirects there at once.
    const again = await enrolInPage(s, jar, factorsPage)
    expect(again.status).toBe(302)
    expect(again.headers.get('location')).toBe('http://localhost:3000/dashboard')
    // As JSON (an app with its own UI): the same target, as `url`.
    const started = (await (await post(s, jar, { intent: 'start' }, true)).json()) as {
      enrolment: string
      secret: string
    }
    const viaJson = await post(
      s,
      jar,
      { intent: 'confirm', enrolment: started.enrolment, code: appCode(started.secret), callbackUrl: '/dashboard' },
      true,
    )
    expect(await viaJson.json()).toMatchObject({ recoveryCodes: null, url: 'http://localhost:3000/dashboard' })
    // An unusable callback URL (a control character) is ignored: the page stays on itself, the refusal logged once.
    const refusedBefore = s.config.recorded.warnings.filter((w) => w === 'refused:callback-url').length
    const more = (await (await post(s, jar, { intent: 'start' }, true)).json()) as { enrolment: string; secret: string }
    const unusable = await post(s, jar, {
      intent: 'confirm',
      enrolment: more.enrolment,
      code: appCode(more.secret),
      callbackUrl: '/dashboard\u0001',
    })
    expect(unusable.headers.get('location')).toBe('http://localhost:3000/auth/factors')
    expect(s.config.recorded.warnings.filter((w) => w === 'refused:callback-url').length - refusedBefore).toBe(1)

    // An off-site callback URL given to the factors page itself: the default redirect callback refuses it, so the
    // enrolment goes on to the base URL.
    const held = new CookieJar()
    await signIn(s.config, held, 'alan', 'x', { callbackUrl: '/dashboard' })
    const offSite = await enrolInPage(
      s,
      held,
      `/auth/factors?callbackUrl=${encodeURIComponent('https://evil.example/steal')}`,
    )
    const offSitePage = await offSite.text()
    expect(onwardLink(offSitePage)).toBe('http://localhost:3000')
    expect(offSitePage).not.toContain('evil.example/steal"')
    expect(await signInMethods(s, held)).toEqual(['mfa', 'otp', 'pwd'])
    expect(s.config.recorded.errors).toEqual([])
  })

  it("the enrolment's callback URL goes through the app's redirect callback, as a sign-in's does", async () => {
    const decided: Array<{ url: string; baseUrl: string }> = []
    const s = site(await makeAdapter(), 'required', {
      ownAuthTime: false,
      // The app's own rule: its site only, and it marks what it let through.
      redirect: ({ url, baseUrl }) => {
        decided.push({ url, baseUrl })
        const target = new URL(url, baseUrl)
        if (target.origin !== baseUrl) return `${baseUrl}/home`
        target.searchParams.set('checked', '1')
        return target.href
      },
    })
    const jar = new CookieJar()
    const answer = await signIn(s.config, jar, 'ada', 'x', { callbackUrl: '/dashboard' })
    const factorsPage = sentTo(answer)
    expect(factorsPage).toBe(
      `/auth/factors?callbackUrl=${encodeURIComponent('http://localhost:3000/dashboard?checked=1')}`,
    )
    decided.length = 0
    const done = await enrolInPage(s, jar, factorsPage)
    expect(onwardLink(await done.text())).toBe('http://localhost:3000/dashboard?checked=1')
    expect(decided).toEqual([{ url: 'http://localhost:3000/dashboard?checked=1', baseUrl: 'http://localhost:3000' }])

    // Off-site, given to the factors page: the app's callback is asked, and its answer followed.
    decided.length = 0
    const held = new CookieJar()
    await signIn(s.config, held, 'alan', 'x')
    decided.length = 0
    const offSite = await enrolInPage(
      s,
      held,
      `/auth/factors?callbackUrl=${encodeURIComponent('https://evil.example/')}`,
    )
    expect(onwardLink(await offSite.text())).toBe('http://localhost:3000/home')
    expect(decided).toEqual([{ url: 'https://evil.example/', baseUrl: 'http://localhost:3000' }])
    expect(s.config.recorded.errors).toEqual([])
  })

  for (const strategy of ['jwt', 'database'] as const)
    it(`policy 'required', ${strategy} sessions: the held sign-in reads as no session (GET /session, auth(), requireRecentAuth, update(), a forged cookie) until a factor is enrolled, then the full session with its own auth_time`, async () => {
      const s = site(await makeAdapter(), 'required', { strategy, ownAuthTime: false })
      const jar = new CookieJar()
      const heldAt = Math.floor(Date.now() / 1000)
      const answer = await signIn(s.config, jar, 'ada', 'x', { callbackUrl: 'http://localhost:3000/app' })
      expect(sentTo(answer)).toBe(enrolPage)
      expect(jar.cookies.has('authjs.session-token')).toBe(false)
      const held = jar.cookies.get('authchart.enrolment-pending') ?? ''
      expect(held).not.toBe('')

      // Every session read finds nobody signed in, as Auth.js answers without a session.
      expect(await session(s.config, jar)).toBeNull()
      expect(await signInMethods(s, jar)).toBeNull()
      const stepUp = await requireRecentAuth(
        new Request(`${origin}/app`, { headers: { cookie: jar.header() } }),
        s.config,
        { maxAge: 300 },
      )
      expect(stepUp?.status).toBe(303)
      // update() has no session to change: still none, and no session cookie comes of it.
      const updated = await send(s.config, '/auth/session', {
        jar,
        json: { csrfToken: await csrfToken(s.config, jar), data: { enrolmentPending: false, amr: ['mfa'] } },
      })
      expect(await updated.json()).toBeNull()
      expect(jar.cookies.has('authjs.session-token')).toBe(false)
      // The held cookie's value as a session cookie is no session: another key seals it.
      const forged = new CookieJar()
      forged.cookies.set('authjs.session-token', held)
      expect(await session(s.config, forged)).toBeNull()
      expect(await signInMethods(s, forged)).toBeNull()
      // A held sign-in sealed by someone without the app's secret is refused by the factors endpoints.
      const outsider = new CookieJar()
      outsider.cookies.set(
        'authchart.enrolment-pending',
        sealPendingSignIn([`${appSecret}-not-this-app`], {
          user: { id: s.ada },
          account: null,
          authTime: heldAt,
          expiresAt: heldAt + 600,
        }),
      )
      const refused = await send(s.config, '/auth/factors', { jar: outsider, headers: { accept: 'application/json' } })
      expect(refused.status).toBe(401)

      // The factors endpoints accept it; the first factor turns it into the full session, two minutes later.
      const page = await send(s.config, '/auth/factors', { jar })
      expect(page.status).toBe(200)
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 120_000 })
      await enrolTotp(s, jar)
      expect(jar.cookies.has('authchart.enrolment-pending')).toBe(false)
      const signedIn = await getSessionAuthentication(
        new Request(`${origin}/`, { headers: { cookie: jar.header() } }),
        s.config,
      )
      // The enrolment's first code proved the app: it joins the amr; the sign-in's time stays the sign-in's.
      expect(signedIn?.amr).toEqual(['mfa', 'otp', 'pwd'])
      expect(Math.abs((signedIn?.authTime ?? 0) - heldAt)).toBeLessThanOrEqual(1)
      expect(await session(s.config, jar)).toMatchObject({ user: { email: 'ada@example.com' } })
      // The one error: the forged JWT that did not open (a database session's is only not found).
      expect(s.config.recorded.errors.map((e) => e.name)).toEqual(strategy === 'jwt' ? ['JWTSessionError'] : [])
    })

  it("policy 'optional' (the default): a user without a factor gets a session at once, no held sign-in", async () => {
    const s = site(await makeAdapter(), 'optional', { ownAuthTime: false })
    const jar = new CookieJar()
    const answer = await signIn(s.config, jar, 'ada', 'x', { callbackUrl: 'http://localhost:3000/app' })
    expect(answer.headers.get('location')).toBe('http://localhost:3000/app')
    expect(jar.cookies.has('authchart.enrolment-pending')).toBe(false)
    expect(await signInMethods(s, jar)).toEqual(['pwd'])
  })

  it('a policy function: enrolment for the user it answers true for, none for the one it answers false for', async () => {
    const made = await makeAdapter()
    const asked: Array<[string, string | undefined]> = []
    const s = site(made, {
      policy: (user, account) => {
        asked.push([user.id ?? '', account?.provider])
        return user.email === 'ada@example.com'
      },
    })
    const ada = new CookieJar()
    expect(sentTo(await signIn(s.config, ada, 'ada', 'x', { callbackUrl: 'http://localhost:3000/app' }))).toBe(
      enrolPage,
    )
    const alan = new CookieJar()
    const alanAnswer = await signIn(s.config, alan, 'alan', 'x', { callbackUrl: 'http://localhost:3000/app' })
    expect(alanAnswer.headers.get('location')).toBe('http://localhost:3000/app')
    expect(await signInMethods(s, alan)).toEqual(['pwd'])
    // Asked with the stored user and the sign-in's account (the credentials provider's).
    expect(asked).toEqual([
      [s.ada, 'credentials'],
      [s.alan, 'credentials'],
    ])

    // Once Alan has a factor of his own, he is challenged whatever the policy says of him.
    const { secret } = await enrolTotp(s, alan)
    const again = new CookieJar()
    expect(sentTo(await signIn(s.config, again, 'alan'))).toBe('/auth/second-factor')
    expect((await answerChallenge(s, again, { factor: 'otp', code: appCode(secret, 1) })).status).toBe(302)
    expect(await signInMethods(s, again)).toEqual(['mfa', 'otp', 'pwd'])
    expect(s.config.recorded.errors).toEqual([])
  })

  it('a database outage while the factors are read: 503 with the way back to sign-in, logged once, no session (not an error page)', async () => {
    const made = await makeAdapter()
    // The database stops answering for this one call (the soak's stall): the adapter wrapper turns it into an
    // AdapterError, logged there.
    made.adapter.listFactorsByUserId = () => Promise.reject(new Error('database stalled'))
    const s = site(made)
    const jar = new CookieJar()
    const answer = await signIn(s.config, jar, 'ada', 'x')
    expect(answer.status).toBe(503)
    expect(answer.headers.get('retry-after')).toBe('5')
    expect(await answer.text()).toContain('href="http://localhost:3000/auth/signin"')
    expect(jar.cookies.has('authjs.session-token')).toBe(false)
    expect(s.config.recorded.errors.map((e) => e.name)).toEqual(['AdapterError'])
  })

  it('a policy function that throws or rejects: the sign-in is refused with the error page, logged once, no session', async () => {
    for (const policy of [
      () => {
        throw new Error('policy store down')
      },
      () => Promise.reject(new Error('policy store down')),
    ]) {
      const s = site(await makeAdapter(), { policy })
      const jar = new CookieJar()
      const answer = await signIn(s.config, jar, 'ada', 'x', { callbackUrl: 'http://localhost:3000/app' })
      expect(answer.status).toBe(302)
      expect(sentTo(answer)).toMatch(/^\/auth\/(error|signin)\?error=/)
      expect(await signInMethods(s, jar)).toBeNull()
      expect(s.config.recorded.errors).toHaveLength(1)
      expect(s.config.recorded.errors[0]?.message).not.toContain('at ')
      // The JSON answer of an app with its own UI: a clear error, never a 500.
      const viaJson = new CookieJar()
      const token = await csrfToken(s.config, viaJson)
      const json = await send(s.config, '/auth/callback/credentials', {
        jar: viaJson,
        json: { username: 'ada', password: 'x', csrfToken: token },
        headers: { accept: 'application/json' },
      })
      expect(json.status).toBeLessThan(500)
      expect(await signInMethods(s, viaJson)).toBeNull()
    }
  })
}
