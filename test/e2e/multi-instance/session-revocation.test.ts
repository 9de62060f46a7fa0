/**
 * Session management across instances: two server processes (sessions-server.ts) on one Redis, and on a private
 * six-node Redis Cluster. A session revoked through one instance's "your sessions" page is refused by the other
 * within 1 s while that other instance serves a steady load of session checks, for JWT and database sessions; the app's
 * `revokeUserSessions` ends every session of a user on both. Negative cases: no CSRF token, another user's session id.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { Redis, type Cluster } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RedisAdapter } from '../../../adapters/redis.js'
import { CookieJar } from '../../support/auth-harness.js'
import { startRedisCluster, type PrivateRedisCluster } from '../../support/redis-cluster.js'

const script = fileURLToPath(new URL('./sessions-server.ts', import.meta.url))
const secret = 'session-revocation-secret-0123456789abcdef'
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'

interface Instance {
  port: number
  child: ChildProcess
  log: () => string
}

async function startServer(env: Record<string, string>): Promise<Instance> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { ...process.env, PORT: '0', AUTH_SECRET: secret, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  process.once('exit', () => child.kill('SIGKILL'))
  let stderr = ''
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const port = await new Promise<number>((resolve, reject) => {
    let out = ''
    const timer = setTimeout(() => reject(new Error(`no ready line\n${stderr}`)), 30_000)
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk
      const ready = /ready (\d+)/.exec(out)
      if (ready) {
        clearTimeout(timer)
        resolve(Number(ready[1]))
      }
    })
    child.once('exit', (code) => reject(new Error(`exited ${code}\n${stderr}`)))
  })
  return { port, child, log: () => stderr }
}

async function stop(instance: Instance | undefined): Promise<void> {
  if (!instance || instance.child.exitCode !== null) return
  const exited = new Promise((resolve) => instance.child.once('exit', resolve))
  instance.child.kill('SIGTERM')
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3000))])
  instance.child.kill('SIGKILL')
}

/** One request to an instance; every instance serves the same site (the Host header a load balancer keeps). */
async function call(
  instance: Instance,
  path: string,
  options: { jar?: CookieJar; form?: Record<string, string>; userAgent?: string } = {},
): Promise<Response> {
  const headers = new Headers({ host: 'app.test' })
  if (options.jar && options.jar.cookies.size > 0) headers.set('cookie', options.jar.header())
  if (options.userAgent) headers.set('user-agent', options.userAgent)
  let body: string | undefined
  if (options.form) {
    headers.set('content-type', 'application/x-www-form-urlencoded')
    body = new URLSearchParams(options.form).toString()
  }
  const response = await fetch(`http://127.0.0.1:${instance.port}${path}`, {
    method: options.form ? 'POST' : 'GET',
    headers,
    body,
    redirect: 'manual',
  })
  options.jar?.take(response)
  return response
}

async function csrf(instance: Instance, jar: CookieJar): Promise<string> {
  return ((await (await call(instance, '/auth/csrf', { jar })).json()) as { csrfToken: string }).csrfToken
}

const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0'
const iphone =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'

async function signIn(instance: Instance, username: string, userAgent: string): Promise<CookieJar> {
  const jar = new CookieJar()
  const csrfToken = await csrf(instance, jar)
  const response = await call(instance, '/auth/callback/credentials', {
    jar,
    userAgent,
    form: { csrfToken, username },
  })
  expect(response.status, await response.text()).toBe(302)
  expect([...jar.cookies.keys()].some((name) => name.includes('session-token'))).toBe(true)
  return jar
}

/** The session cookie's value: a database session's token (a JWT session's token otherwise). */
function sessionTokenOf(jar: CookieJar): string {
  const found = [...jar.cookies].find(([name]) => name.includes('session-token'))
  if (!found) throw new Error('no session cookie in the jar')
  return found[1]
}

async function sessionOf(instance: Instance, jar: CookieJar): Promise<unknown> {
  const response = await call(instance, '/auth/session', { jar: cloneJar(jar) })
  expect(response.status).toBe(200)
  return response.json()
}

function cloneJar(jar: CookieJar): CookieJar {
  const copy = new CookieJar()
  for (const [name, value] of jar.cookies) copy.cookies.set(name, value)
  return copy
}

/** The ids of the other devices' sign-out forms on the user's sessions page. */
async function otherSessionIds(instance: Instance, jar: CookieJar): Promise<string[]> {
  const page = await call(instance, '/auth/sessions', { jar })
  expect(page.status).toBe(200)
  const html = await page.text()
  return [...html.matchAll(/name="revoke" value="([^"]+)"/g)].map((m) => m[1] ?? '').filter((id) => id !== 'others')
}

/** Session checks on `instance` from `jars` in a loop until stopped; resolves to the number of checks made. */
function loadOf(instance: Instance, jars: CookieJar[]): { stop: () => Promise<number> } {
  let running = true
  let checks = 0
  const workers = Array.from({ length: 6 }, async (_, w) => {
    while (running) {
      const jar = jars[(checks + w) % jars.length]
      if (!jar) break
      await call(instance, '/auth/session', { jar: cloneJar(jar) })
      checks += 1
    }
  })
  return {
    stop: async () => {
      running = false
      await Promise.all(workers)
      return checks
    },
  }
}

/** Milliseconds from now until `instance` answers `null` for `jar`'s session (polled every 10 ms, up to 5 s). */
async function msUntilRefused(instance: Instance, jar: CookieJar, since: number): Promise<number> {
  for (;;) {
    const session = await sessionOf(instance, jar)
    if (session === null) return Date.now() - since
    if (Date.now() - since > 5000) return Number.POSITIVE_INFINITY
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

type Deployment = 'redis' | 'cluster'

for (const deployment of ['redis', 'cluster'] as const satisfies Deployment[]) {
  for (const strategy of ['jwt', 'database'] as const) {
    describe(`session revocation across two instances (${strategy} sessions, ${deployment})`, () => {
      const prefix = `authchart-test:revoke:${randomUUID()}:`
      let cluster: PrivateRedisCluster | undefined
      let client: Redis | Cluster
      let a: Instance | undefined
      let b: Instance | undefined
      const A = () => a as Instance
      const B = () => b as Instance

      beforeAll(async () => {
        const env: Record<string, string> = { STRATEGY: strategy, REDIS_PREFIX: prefix, REDIS_URL: redisUrl }
        if (deployment === 'cluster') {
          cluster = await startRedisCluster()
          client = cluster.client()
          env.REDIS_CLUSTER_NODES = cluster.startupNodes.map(({ host, port }) => `${host}:${port}`).join(',')
        } else {
          client = new Redis(redisUrl)
        }
        if (strategy === 'database') {
          const adapter = RedisAdapter(client, { prefix: `${prefix}data:` })
          for (const name of ['alice', 'bob', 'carol', 'dave', 'erin', 'mallory'])
            await adapter.createUser?.({ id: name, name, email: `${name}@example.com`, emailVerified: null })
        }
        ;[a, b] = await Promise.all([startServer(env), startServer(env)])
      }, 90_000)

      afterAll(async () => {
        await Promise.all([stop(a), stop(b)])
        if (deployment === 'redis') {
          const keys = await (client as Redis).keys(`${prefix}*`)
          if (keys.length > 0) await (client as Redis).del(...keys)
        }
        client?.disconnect()
        await cluster?.stop()
      })

      it('a device signed out through one instance is refused by the other within 1 s, under load', async () => {
        const laptop = await signIn(A(), 'alice', firefox)
        const phone = await signIn(B(), 'alice', iphone)
        const others = await Promise.all(['carol', 'dave', 'erin'].map((u) => signIn(A(), u, firefox)))
        expect(await sessionOf(B(), phone)).toMatchObject({ user: { name: 'alice' } })
        const page = await (await call(A(), '/auth/sessions', { jar: laptop })).text()
        expect(page).toContain('Firefox on Linux')
        expect(page).toContain('Safari on iOS')
        const [phoneId] = await otherSessionIds(A(), laptop)
        expect(phoneId).toBeTruthy()
        // A database session's record is on its row (the Redis adapter keeps it), not in the session store.
        const rows = strategy === 'database' ? RedisAdapter(client, { prefix: `${prefix}data:` }) : undefined
        const phoneToken = sessionTokenOf(phone)
        if (rows) {
          const row = (await rows.getSessionAndUser(phoneToken))?.session
          expect(row).toMatchObject({ deviceSummary: 'Safari on iOS', method: 'credentials' })
          expect(row?.lastSeenAt).toBeInstanceOf(Date)
        }

        const load = loadOf(B(), [phone, laptop, ...others])
        await new Promise((resolve) => setTimeout(resolve, 300))
        const csrfToken = await csrf(A(), laptop)
        const revoked = await call(A(), '/auth/sessions', { jar: laptop, form: { csrfToken, revoke: phoneId ?? '' } })
        const since = Date.now()
        expect(revoked.status).toBe(302)
        const elapsed = await msUntilRefused(B(), phone, since)
        const checks = await load.stop()
        expect(elapsed, B().log()).toBeLessThan(1000)
        expect(checks).toBeGreaterThan(20)
        // Ending a database session deleted its row: refused on every instance with nothing to propagate.
        if (rows) expect(await rows.getSessionAndUser(phoneToken)).toBeNull()
        // The device that signed the other out is still signed in, on both instances.
        expect(await sessionOf(A(), laptop)).toMatchObject({ user: { name: 'alice' } })
        expect(await sessionOf(B(), laptop)).toMatchObject({ user: { name: 'alice' } })
        expect(await otherSessionIds(B(), laptop)).toEqual([])
      }, 60_000)

      it("the app's revokeUserSessions ends every session of the user on every instance", async () => {
        const one = await signIn(A(), 'bob', firefox)
        const two = await signIn(B(), 'bob', iphone)
        expect(await sessionOf(B(), one)).toMatchObject({ user: { name: 'bob' } })
        const load = loadOf(B(), [one, two])
        const response = await fetch(`http://127.0.0.1:${A().port}/app/revoke-user?userId=bob`, { method: 'POST' })
        const since = Date.now()
        expect(response.status).toBe(200)
        const [first, second] = await Promise.all([msUntilRefused(B(), one, since), msUntilRefused(B(), two, since)])
        await load.stop()
        expect(Math.max(first, second)).toBeLessThan(1000)
        expect(await sessionOf(A(), two)).toBeNull()
        // Signing in again afterwards works.
        const again = await signIn(B(), 'bob', firefox)
        expect(await sessionOf(A(), again)).toMatchObject({ user: { name: 'bob' } })
      }, 60_000)

      it("revoking needs the CSRF token, and one user can neither list nor end another's sessions", async () => {
        const alice = await signIn(A(), 'alice', firefox)
        const alicePhone = await signIn(A(), 'alice', iphone)
        const mallory = await signIn(B(), 'mallory', firefox)
        const [aliceId] = await otherSessionIds(A(), alice)
        expect(aliceId).toBeTruthy()

        // No CSRF token: refused, nothing ended.
        const noCsrf = await call(B(), '/auth/sessions', { jar: alice, form: { revoke: aliceId ?? '' } })
        expect(noCsrf.status).toBe(403)
        const wrongCsrf = await call(B(), '/auth/sessions', {
          jar: alice,
          form: { csrfToken: 'f'.repeat(64), revoke: 'others' },
        })
        expect(wrongCsrf.status).toBe(403)
        expect(await sessionOf(A(), alicePhone)).toMatchObject({ user: { name: 'alice' } })

        // Another user's session id, with that other user's valid CSRF token: not found, nothing ended.
        const malloryCsrf = await csrf(B(), mallory)
        const foreign = await call(B(), '/auth/sessions', {
          jar: mallory,
          form: { csrfToken: malloryCsrf, revoke: aliceId ?? '' },
        })
        expect(foreign.status).toBe(404)
        expect(await sessionOf(A(), alicePhone)).toMatchObject({ user: { name: 'alice' } })
        expect(await sessionOf(B(), alicePhone)).toMatchObject({ user: { name: 'alice' } })
        // Mallory's page lists Mallory only.
        const page = await (await call(B(), '/auth/sessions', { jar: mallory })).text()
        expect(page).not.toContain(aliceId ?? '')
        expect(page).not.toContain('Safari on iOS')

        // Without a session the page sends the visitor to sign in, and a POST ends nothing.
        const anonymous = new CookieJar()
        expect((await call(A(), '/auth/sessions', { jar: anonymous })).status).toBe(302)
        const anonymousCsrf = await csrf(A(), anonymous)
        const anonymousPost = await call(A(), '/auth/sessions', {
          jar: anonymous,
          form: { csrfToken: anonymousCsrf, revoke: aliceId ?? '' },
        })
        expect(anonymousPost.status).toBe(404)
        expect(await sessionOf(B(), alicePhone)).toMatchObject({ user: { name: 'alice' } })
      }, 60_000)
    })
  }
}
