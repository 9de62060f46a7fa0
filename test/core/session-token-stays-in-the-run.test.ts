/**
 * The session token leaves a run only through the run's scratch, to the HTTP layer that sets the cookie
 * (docs/architecture.md, "Stateless handlers: params and the run's scratch"): what others observe of the flows that
 * issue, slide, re-issue or clear it (the app's `onTransition` hook, the debug log, the audit trail) never carries
 * it. A database session's token is the row's key; a
 * JWT session's is the sealed cookie. Through `Auth()`, on the memory adapter.
 */
import { describe, expect, it } from 'vitest'
import { createMemoryStore, MemoryAdapter } from '../../adapters/memory.js'
import type { AuthConfig } from '../../src/types/index.js'
import type { LoggerInstance } from '../../src/types/logger.js'
import { CookieJar, csrfToken, send, signIn, testConfig, users } from '../support/auth-harness.js'

/** Everything the app can observe of the flows: hook records, every log line (debug on), audit records. */
function observed() {
  const seen: unknown[] = []
  const line = (level: string) => (code: unknown, meta?: unknown) => void seen.push([level, String(code), meta])
  const logger: LoggerInstance = { debug: line('debug'), warn: line('warn'), error: line('error') }
  const config: Partial<AuthConfig> = {
    debug: true,
    logger,
    onTransition: (record) => void seen.push(record),
    audit: (record) => void seen.push(record),
  }
  return { seen, config, text: () => JSON.stringify(seen) }
}

const sessionCookie = 'authjs.session-token'

describe('the session token stays out of what the app observes of a flow', () => {
  it('database session: sign-in, a check that slides the row, sign-out', async () => {
    const store = createMemoryStore()
    const adapter = MemoryAdapter(store)
    for (const { user } of Object.values(users)) await adapter.createUser({ ...user, emailVerified: null })
    const watch = observed()
    // `updateAge: 0`: every check slides the row and writes the cookie again, from the run's scratch.
    const config = testConfig({ adapter, session: { strategy: 'database', updateAge: 0 }, ...watch.config })
    const jar = new CookieJar()
    expect((await signIn(config, jar)).status).toBe(302)
    const token = jar.cookies.get(sessionCookie) ?? ''
    expect(store.sessions.get(token)?.userId).toBe('u-ada')

    const check = await send(config, '/auth/session', { jar })
    expect(await check.json()).toMatchObject({ user: { email: 'ada@example.com' } })
    expect(check.headers.getSetCookie().some((line) => line.startsWith(`${sessionCookie}=${token};`))).toBe(true)

    const signedOut = await send(config, '/auth/signout', { jar, form: { csrfToken: await csrfToken(config, jar) } })
    expect(signedOut.status).toBe(302)
    jar.take(signedOut)
    expect(jar.cookies.has(sessionCookie)).toBe(false)
    expect(store.sessions.has(token)).toBe(false)

    // The flows were observed (the sign-in, the check), and the token is nowhere in what was.
    const machines = watch.seen.flatMap((item) =>
      typeof item === 'object' && item !== null && 'machine' in item ? [item.machine] : [],
    )
    expect(machines).toEqual(expect.arrayContaining(['credentials', 'session']))
    expect(watch.text()).toContain('reissuing')
    expect(watch.text()).toContain('signingOut')
    expect(watch.text()).not.toContain(token)
  })

  it('JWT session: the sealed cookie of the sign-in and of each re-issue', async () => {
    const watch = observed()
    const config = testConfig({ ...watch.config })
    const jar = new CookieJar()
    await signIn(config, jar)
    const issued = jar.cookies.get(sessionCookie) ?? ''
    expect(issued.length).toBeGreaterThan(100)
    const check = await send(config, '/auth/session', { jar })
    jar.take(check)
    const reissued = jar.cookies.get(sessionCookie) ?? ''
    expect(reissued).not.toBe(issued)
    expect(watch.text()).toContain('reissuing')
    for (const sealed of [issued, reissued]) expect(watch.text()).not.toContain(sealed.slice(-40))
  })
})
