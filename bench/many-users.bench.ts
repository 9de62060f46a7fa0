/**
 * The session check as a real site sees it (#37): 20,000 distinct users, each cookie presented a few times over the
 * run and never before the 19,999 others, so no cache of opened tokens could answer. Each library
 * checks cookies its own `encode` sealed with the same claims a credentials sign-in gives (the same secret and
 * cookie name, so the same keys); both re-issue the cookie on every check, their default.
 *
 * Beside it, the crypto floor in the same process: what the check cannot avoid for a JWT session re-issued on every
 * check, done directly with node:crypto on the same tokens: verify the MAC and decrypt (A256CBC-HS512), parse the
 * claims, then encrypt and MAC a new token. "Authchart / floor" says how far the check is from it.
 *
 * And a second floor, the crypto floor plus the web API any `Auth(Request): Response` library pays on Node 20: the
 * same `Request` the harness builds for both libraries, its cookie read back, the same open and re-seal, and one
 * `Response` (the session's JSON, a content type and one `Set-Cookie` line) whose body is read, as the harness reads
 * the libraries' answers. What Authchart spends beyond it is its own code.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, randomUUID } from 'node:crypto'
import { Auth as AuthJs } from '@auth/core'
import AuthJsCredentials from '@auth/core/providers/credentials'
import { encode as authjsEncode } from '@auth/core/jwt'
import { Auth } from '../src/index.js'
import { encode } from '../src/jwt.js'
import Credentials from '../src/providers/credentials.js'
import { compare, printTable, runOptions, type CaseResult, type Side } from './measure.js'

const origin = 'http://localhost:3000'
const secret = 'bench-secret-bench-secret-bench-secret-42'
const cookieName = 'authjs.session-token'
const credentialFields = { username: {}, password: {} }
const authorize = async () => null
const shape = { secret, trustHost: true, basePath: '/auth' }
const ours = { ...shape, providers: [Credentials({ credentials: credentialFields, authorize })] }
const theirs = { ...shape, providers: [AuthJsCredentials({ credentials: credentialFields, authorize })] }

/** The claims a credentials sign-in leaves in the token (what both libraries' `jwt` callback default keeps). */
const claimsOf = (i: number) => ({ name: `User ${i}`, email: `user${i}@example.com`, picture: null, sub: randomUUID() })

/** Takes the cookies in turn, each once per pass, so no cookie comes back before all the others have. */
function inTurn(cookies: string[], check: (cookie: string) => Promise<unknown>): Side {
  let next = 0
  return { run: () => check(cookies[next++ % cookies.length]) }
}

/** `GET /auth/session` through a library's handler with one user's cookie; the body is read, as a client would. */
const sessionCheck = (handler: (request: Request) => Promise<Response>) => async (cookie: string) => {
  const response = await handler(new Request(`${origin}/auth/session`, { headers: { cookie } }))
  return response.text()
}

/** A256CBC-HS512 (RFC 7518 §5.2) with node:crypto alone: the floor's primitives. */
const key = new Uint8Array(
  hkdfSync('sha256', secret, cookieName, `Auth.js Generated Encryption Key (${cookieName})`, 64),
)
const macKey = key.subarray(0, 32)
const encKey = key.subarray(32)
function tagOf(aad: Buffer, iv: Buffer, ciphertext: Buffer): Buffer {
  const al = Buffer.alloc(8)
  al.writeBigUInt64BE(BigInt(aad.length * 8))
  return createHmac('sha512', macKey).update(aad).update(iv).update(ciphertext).update(al).digest().subarray(0, 32)
}
function isClaims(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}

/** Opens a token and seals the next one: the claims and the new token. */
function floorSeal(token: string): { claims: Record<string, unknown>; token: string; exp: number } {
  const [header = '', , ivPart = '', ciphertextPart = '', tagPart = ''] = token.split('.')
  const aad = Buffer.from(header, 'latin1')
  const iv = Buffer.from(ivPart, 'base64url')
  const ciphertext = Buffer.from(ciphertextPart, 'base64url')
  if (!tagOf(aad, iv, ciphertext).equals(Buffer.from(tagPart, 'base64url'))) throw new Error('floor: MAC mismatch')
  const decipher = createDecipheriv('aes-256-cbc', encKey, iv)
  const claims: unknown = JSON.parse(Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString())
  if (!isClaims(claims)) throw new Error('floor: the claims are not an object')
  const now = Math.floor(Date.now() / 1000)
  const exp = now + 2_592_000
  const next = JSON.stringify({ ...claims, iat: now, exp, jti: randomUUID() })
  const newIv = randomBytes(16)
  const cipher = createCipheriv('aes-256-cbc', encKey, newIv)
  const newCiphertext = Buffer.concat([cipher.update(next), cipher.final()])
  const newTag = tagOf(aad, newIv, newCiphertext)
  return {
    claims,
    token: `${header}..${newIv.toString('base64url')}.${newCiphertext.toString('base64url')}.${newTag.toString('base64url')}`,
    exp,
  }
}

/** The crypto floor: node:crypto alone on the token string. */
const floorCheck = (token: string): string => floorSeal(token).token

/**
 * The crypto floor plus the web API: the harness's `Request` (as for the libraries), the cookie read from it, the
 * same open and re-seal, and the answer any session endpoint gives (the session's JSON, its expiry, one `Set-Cookie`
 * line with the same attributes as the libraries'), built as a `Response` whose body is read.
 */
async function webFloorCheck(cookie: string): Promise<string> {
  const request = new Request(`${origin}/auth/session`, { headers: { cookie } })
  const header = request.headers.get('cookie') ?? ''
  const opened = floorSeal(header.slice(header.indexOf('=') + 1))
  const expires = new Date(opened.exp * 1000)
  const { name, email } = opened.claims
  const response = new Response(JSON.stringify({ user: { name, email }, expires: expires.toISOString() }), {
    headers: {
      'content-type': 'application/json',
      'set-cookie': `${cookieName}=${opened.token}; Path=/; Expires=${expires.toUTCString()}; HttpOnly; SameSite=Lax`,
    },
  })
  return response.text()
}

export async function runManyUsersBench(
  options: { quick?: boolean; users?: number } = {},
): Promise<Record<string, number>> {
  const run = runOptions(options.quick)
  const users = options.users ?? 20_000
  const oursTokens: string[] = []
  const theirsTokens: string[] = []
  for (let i = 0; i < users; i++) {
    const token = claimsOf(i)
    oursTokens.push(await encode({ token, secret, salt: cookieName }))
    theirsTokens.push(await authjsEncode({ token, secret, salt: cookieName }))
  }
  const cookie = (token: string) => `${cookieName}=${token}`
  const oursCheck = sessionCheck((request) => Auth(request, ours))
  const theirsCheck = sessionCheck((request) => AuthJs(request, theirs))
  for (const [check, token, name] of [
    [oursCheck, oursTokens[0], 'Authchart'],
    [theirsCheck, theirsTokens[0], '@auth/core'],
  ] as const)
    if (!String(await check(cookie(token ?? ''))).includes('user0@example.com'))
      throw new Error(`many-users: ${name} did not find the session`)
  if (!floorCheck(oursTokens[0] ?? '').includes('..')) throw new Error('many-users: the floor did not seal')
  if (!(await webFloorCheck(cookie(oursTokens[0] ?? ''))).includes('user0@example.com'))
    throw new Error('many-users: the web floor did not answer the session')

  const results: CaseResult[] = [
    await compare(
      `GET /session, ${users.toLocaleString('en')} distinct users in turn, cookie re-issued on every check`,
      inTurn(oursTokens.map(cookie), oursCheck),
      inTurn(theirsTokens.map(cookie), theirsCheck),
      run,
    ),
  ]
  const ratios = printTable('Session check with many distinct users (in-process)', results, run)
  const floor = await compare(
    'Authchart against the crypto floor (node:crypto open + re-seal of the same tokens)',
    inTurn(oursTokens.map(cookie), oursCheck),
    inTurn(oursTokens, async (token) => floorCheck(token)),
    run,
  )
  const webFloor = await compare(
    'Authchart against the crypto + web floor (the same Request, open + re-seal, one Response read)',
    inTurn(oursTokens.map(cookie), oursCheck),
    inTurn(oursTokens.map(cookie), webFloorCheck),
    run,
  )
  return {
    ...ratios,
    ...printTable('The same check against its crypto floor', [floor], run, ['Authchart', 'floor']),
    ...printTable('The same check against the crypto floor plus the web API', [webFloor], run, [
      'Authchart',
      'crypto + web floor',
    ]),
  }
}
