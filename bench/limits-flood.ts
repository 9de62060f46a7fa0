/**
 * `npm run bench:limits-flood`: whether a flood of failed credentials sign-ins under fresh usernames can slow
 * everyone down through the built-in memory counter (finding 7 of the limits review: once the old counter held
 * 100,000 keys, every new key scanned all of them, 2.4-4.5 ms a key, and the session check's p99 went from 39 ms to
 * 2.6 s under load).
 *
 * One process, one `Auth()` config with the memory counter. Measured twice, on an empty counter and after the flood
 * (200,000 failed sign-ins through `Auth()`, each under a username never seen before):
 * - the cost of a new counter key: a failed sign-in under a fresh username, median and p99 over 2,000;
 * - the session check: `GET /auth/session` with a valid cookie, p99 over 5,000.
 * The goal: after the flood, both within 2x of their values on the empty counter. A self-comparison (no @auth/core
 * side: it has no limits to flood). `--quick` floods 20,000.
 */
import { performance } from 'node:perf_hooks'
import { Auth } from '../src/index.js'
import Credentials from '../src/providers/credentials.js'
import { MemoryRequestCounter } from '../src/limits.js'
import type { AuthConfig } from '../src/types/index.js'

const quick = process.argv.includes('--quick')
const flood = quick ? 20_000 : 200_000
const origin = 'http://localhost:3000'

const config: AuthConfig = {
  secret: 'bench-secret-bench-secret-bench-secret-42',
  trustHost: true,
  logger: { error: () => {}, warn: () => {}, debug: () => {} },
  providers: [
    Credentials({
      credentials: { username: {}, password: { type: 'password' } },
      bruteForce: { store: new MemoryRequestCounter(), maxFailures: 5 },
      authorize: ({ username, password }) =>
        username === 'ada' && password === 'lovelace' ? { id: '1', name: 'Ada' } : null,
    }),
  ],
}

/** A CSRF cookie and token pair, fetched once: every POST reuses it, so the flood measures the limits, not CSRF. */
async function csrfPair(): Promise<{ cookie: string; token: string }> {
  const response = await Auth(new Request(`${origin}/auth/csrf`), config)
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? ''
  const { csrfToken } = (await response.json()) as { csrfToken: string }
  return { cookie, token: csrfToken }
}

async function signIn(csrf: { cookie: string; token: string }, username: string, password: string): Promise<Response> {
  return Auth(
    new Request(`${origin}/auth/callback/credentials`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrf.cookie },
      body: new URLSearchParams({ username, password, csrfToken: csrf.token }).toString(),
    }),
    config,
  )
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN
}

let fresh = 0
async function measure(csrf: { cookie: string; token: string }, sessionCookie: string) {
  const newKey: number[] = []
  for (let i = 0; i < 2_000; i++) {
    const started = performance.now()
    await signIn(csrf, `probe-${fresh++}`, 'wrong')
    newKey.push(performance.now() - started)
  }
  const check: number[] = []
  for (let i = 0; i < 5_000; i++) {
    const started = performance.now()
    await Auth(new Request(`${origin}/auth/session`, { headers: { cookie: sessionCookie } }), config)
    check.push(performance.now() - started)
  }
  newKey.sort((a, b) => a - b)
  check.sort((a, b) => a - b)
  return {
    newKeyMedian: percentile(newKey, 0.5),
    newKeyP99: percentile(newKey, 0.99),
    checkP99: percentile(check, 0.99),
  }
}

const csrf = await csrfPair()
const signedIn = await signIn(csrf, 'ada', 'lovelace')
const sessionCookie = signedIn.headers
  .getSetCookie()
  .map((line) => line.split(';')[0])
  .join('; ')
if (!sessionCookie.includes('session-token')) throw new Error('bench: the sign-in did not set a session cookie')

await measure(csrf, sessionCookie) // warm-up
const empty = await measure(csrf, sessionCookie)
const floodStarted = performance.now()
for (let i = 0; i < flood; i++) await signIn(csrf, `junk-${i}`, 'wrong')
const floodSeconds = (performance.now() - floodStarted) / 1000
const full = await measure(csrf, sessionCookie)

const row = (name: string, before: number, after: number) =>
  `| ${name} | ${before.toFixed(3)} ms | ${after.toFixed(3)} ms | ${(after / before).toFixed(2)}x |`
console.log(`flood: ${flood} failed sign-ins under fresh usernames in ${floodSeconds.toFixed(1)} s`)
console.log('| case | empty counter | after the flood | ratio (goal <= 2x) |')
console.log('|---|---|---|---|')
console.log(row('new counter key (failed sign-in, fresh username), median', empty.newKeyMedian, full.newKeyMedian))
console.log(row('new counter key, p99', empty.newKeyP99, full.newKeyP99))
console.log(row('session check, p99', empty.checkP99, full.checkP99))
