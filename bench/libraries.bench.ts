/**
 * Own code or a maintained library, measured: the `Cookie` / `Set-Cookie` code (src/session/cookie-header.ts) against
 * the `cookie` package (v1), and the flow envelope's JSON against `superjson`. Each case is what one request does:
 * read a Cookie header with a session and a flow cookie, write the Set-Cookie lines of a sign-in, seal-ready
 * serialisation of one flow record and its parse. CPU time per operation, so a busy machine skews less.
 */
import { parse as cookieParse, serialize as cookieSerialize } from 'cookie'
import superjson from 'superjson'
import { parseCookieHeader, serializeCookie } from '../src/session/cookie-header.js'

const jwe = `eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2Q0JDLUhTNTEyIiwia2lkIjoi${'x'.repeat(420)}`
const header = `authjs.csrf-token=${'a'.repeat(64)}%7C${'b'.repeat(64)}; authjs.callback-url=http%3A%2F%2Flocalhost%3A3000%2F; authjs.session-token=${jwe}; authchart.flow=${'f'.repeat(500)}`
const options = {
  httpOnly: true,
  sameSite: 'lax' as const,
  path: '/',
  secure: true,
  expires: new Date(Date.now() + 30 * 86400 * 1000),
}
const record = {
  v: 2,
  m: 'oauth',
  s: 'awaitingCallback',
  c: {
    flowId: 'Zk3abc',
    providerId: 'idp',
    callbackUrl: 'http://localhost:3000/dashboard',
    state: 's'.repeat(22),
    nonce: 'n'.repeat(22),
    codeVerifier: 'v'.repeat(43),
    expiresAt: 1_700_000_600,
  },
  x: 1_700_000_900,
}

function cpuMicros(ops: number, fn: () => unknown): number {
  for (let i = 0; i < 2000; i++) fn()
  const start = process.cpuUsage()
  for (let i = 0; i < ops; i++) fn()
  const used = process.cpuUsage(start)
  return (used.user + used.system) / ops
}

/** Measures each pair and prints µs per operation with the library's cost relative to ours. */
export function runLibrariesBench(options_: { quick?: boolean } = {}): Record<string, number> {
  const ops = options_.quick ? 20_000 : 200_000
  const rows: Array<[string, number, number]> = [
    [
      'parse a Cookie header (4 cookies, 1.3 KB; ours now wraps cookie.parse)',
      cpuMicros(ops, () => parseCookieHeader(header)),
      cpuMicros(ops, () => cookieParse(header)),
    ],
    [
      'serialize a session Set-Cookie',
      cpuMicros(ops, () => serializeCookie({ name: '__Secure-authjs.session-token', value: jwe, options })),
      cpuMicros(ops, () => cookieSerialize('__Secure-authjs.session-token', jwe, options)),
    ],
    [
      'flow record to text',
      cpuMicros(ops, () => JSON.stringify(record)),
      cpuMicros(ops, () => superjson.stringify(record)),
    ],
    [
      'flow record from text',
      cpuMicros(ops, () => JSON.parse(JSON.stringify(record)) as unknown),
      cpuMicros(ops, () => superjson.parse(superjson.stringify(record))),
    ],
  ]
  console.log('\n## Own code against the library (CPU µs per operation)')
  console.log('| case | own | library | library / own |\n|---|---:|---:|---:|')
  const ratios: Record<string, number> = {}
  for (const [label, own, library] of rows) {
    ratios[label] = library / own
    console.log(`| ${label} | ${own.toFixed(2)} | ${library.toFixed(2)} | ${(library / own).toFixed(1)}× |`)
  }
  return ratios
}
