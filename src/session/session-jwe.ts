/**
 * Sealing and opening session tokens with the keys of one secret list: the byte format Auth.js writes (a compact
 * JWE, `alg: "dir"`, `enc: "A256CBC-HS512"`, the key derived from the secret with the cookie name as salt, and `kid`
 * the RFC 7638 thumbprint of that key).
 *
 * The session check opens a token on every page view, and with `updateAge: 0` seals one as well, so everything that
 * depends only on the secrets and the salt is worked out once per (secret list, salt) and kept in a keyring: the keys,
 * their thumbprints, the protected header new tokens carry (encoded, with its AAD). A token that carries exactly that
 * header is opened without parsing its header again.
 *
 * No plaintext is remembered between checks. A memo of the last 2,048 tokens sealed or opened saved the decryption
 * when a browser sent back a cookie the process knew, but keeping each check's token and plaintext alive that long
 * cost a site with many users 12 to 16 % of every check, mostly in collection work (docs/benchmarks.md, "Many distinct
 * users"), where no cookie comes back before the memo has forgotten it.
 */
import { createHash, randomUUID } from 'node:crypto'
import { MissingSecret } from '../errors.js'
import { vouchUnreservedValue } from './cookie-header.js'
import { deriveSessionTokenKey, type SessionTokenEnc } from './hkdf-keys.js'
import { openCompactJwe, prepareHeader, sealPrepared, type JweProtectedHeader, type PreparedHeader } from './jwe.js'

/** Clock leeway for tokens written and read by servers whose clocks disagree (Auth.js uses the same). */
const clockToleranceSeconds = 15
const sealingEnc = 'A256CBC-HS512'
const openableEncs: readonly SessionTokenEnc[] = ['A256CBC-HS512', 'A256GCM']

const thumbprints = new WeakMap<Uint8Array, string>()

/**
 * RFC 7638 thumbprint of the key as an `oct` JWK. Auth.js hashes with SHA-(key bits), so the 64-byte session key
 * gets a SHA-512 thumbprint; matching it keeps `kid` equal across both libraries. Keys come from the derivation
 * cache, so each thumbprint is computed once.
 */
export function keyThumbprint(key: Uint8Array): string {
  const known = thumbprints.get(key)
  if (known) return known
  const jwk = `{"k":"${Buffer.from(key).toString('base64url')}","kty":"oct"}`
  const thumbprint = createHash(`sha${key.length * 8}`)
    .update(jwk)
    .digest('base64url')
  thumbprints.set(key, thumbprint)
  return thumbprint
}

/** What one (secret list, salt) pair needs to seal and open session tokens. */
interface Keyring {
  /** The newest secret's key, which seals new tokens, and the header they carry. */
  sealingKey: Uint8Array
  sealingHeader: PreparedHeader
  /** Keys to try for a header: the one its `kid` names (none for a foreign kid), the newest when it names none. */
  candidates: (header: JweProtectedHeader) => readonly Uint8Array[]
}

function buildKeyring(secrets: readonly string[], salt: string): Keyring {
  /** Per `enc`: every secret's key, newest first, and each key by its thumbprint (the `kid` tokens carry). */
  const byEnc = new Map<
    SessionTokenEnc,
    { all: Uint8Array[]; newest: Uint8Array[]; byKid: Map<string, Uint8Array[]> }
  >()
  const keysFor = (enc: SessionTokenEnc) => {
    let keys = byEnc.get(enc)
    if (!keys) {
      const all = secrets.map((secret) => deriveSessionTokenKey(secret, salt, enc))
      // Thumbprints computed once here, not per request: a foreign `kid` is then one map lookup that finds nothing.
      const byKid = new Map<string, Uint8Array[]>()
      for (const key of all) byKid.set(keyThumbprint(key), [...(byKid.get(keyThumbprint(key)) ?? []), key])
      keys = { all, newest: all.slice(0, 1), byKid }
      byEnc.set(enc, keys)
    }
    return keys
  }
  const [sealingKey] = keysFor(sealingEnc).all
  if (!sealingKey) throw new MissingSecret('a secret is required to seal a session token')
  const none: readonly Uint8Array[] = []
  return {
    sealingKey,
    sealingHeader: prepareHeader(sealingEnc, { kid: keyThumbprint(sealingKey) }),
    // Auth.js's rule: a token that names no key is tried with the newest secret only (every token Auth.js or
    // Authchart seals names its key), so a kid-less token costs one MAC however many secrets are kept for rotation.
    candidates: (header) => {
      const keys = keysFor(header.enc)
      return header.kid === undefined ? keys.newest : (keys.byKid.get(header.kid) ?? none)
    },
  }
}

/** Keyrings by secret list (the resolved config's array, one per config) and salt (the session cookie's name). */
const keyrings = new WeakMap<readonly string[], Map<string, Keyring>>()

function keyringOf(secrets: readonly string[], salt: string): Keyring {
  let bySalt = keyrings.get(secrets)
  if (!bySalt) {
    bySalt = new Map()
    keyrings.set(secrets, bySalt)
  }
  let ring = bySalt.get(salt)
  if (!ring) {
    ring = buildKeyring(secrets, salt)
    bySalt.set(salt, ring)
  }
  return ring
}

function isClaimsObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** RFC 7519 §4.1: registered time claims are NumericDates; `exp` and `nbf` are enforced with the clock tolerance. */
function areTimeClaimsValid(claims: Record<string, unknown>, now: number): boolean {
  const { exp, nbf, iat } = claims
  if (iat !== undefined && (typeof iat !== 'number' || !Number.isFinite(iat))) return false
  if (exp !== undefined && (typeof exp !== 'number' || !(exp > now - clockToleranceSeconds))) return false
  if (nbf !== undefined && (typeof nbf !== 'number' || !(nbf <= now + clockToleranceSeconds))) return false
  return true
}

/**
 * Authchart's claim of a session-managed JWT session (src/effects/session/session-record.ts): the session's id, when
 * its user signed in, when its record was written, and the method, in one string `<id>.<at>.<r>.<m>`.
 *
 * Sealed as the token's `jti` rather than as a claim of its own: a token carries a `jti` anyway (a fresh UUID, as
 * Auth.js writes), and every byte of a session cookie is paid twice on each session check (opened, then sealed into
 * the next). Under a name of its own the claim made a session-managed cookie about 100 characters longer, which cost
 * about 4 % of a session check; as the `jti` it replaces the UUID, about 20 characters more than a plain token. The
 * JWT ID then names the session, the same across re-issues until the record is written again, instead of each
 * re-issue. Opening a token puts a `jti` of this form (a UUID has no dot) back under the claim's name, which is where
 * every reader and writer of it looks, so a token decoded and encoded again keeps its session.
 */
export const sessionIdClaimName = 'authchart:sid'

/**
 * Seals `token` plus `iat`, `exp` and a `jti` with the newest secret's key: the session id claim when the token holds
 * it in its compact form (a string; `sessionIdClaimName`), else a fresh UUID.
 * @param secrets non-empty, newest first; keep passing the same array (the keyring is cached by its identity)
 */
export function sealSessionToken(
  secrets: readonly string[],
  salt: string,
  token: object,
  maxAge: number,
  now: number,
): string {
  const ring = keyringOf(secrets, salt)
  // Not a spread with extra members: on Node 20 that literal makes an object JSON.stringify is four times slower on.
  const claims: Record<string, unknown> = Object.assign<Record<string, unknown>, object>({}, token)
  claims.iat = now
  claims.exp = now + maxAge
  const sessionId = claims[sessionIdClaimName]
  if (typeof sessionId === 'string') {
    // Left as a member JSON.stringify skips: a deleted one would put the object in its slow mode.
    claims[sessionIdClaimName] = undefined
    claims.jti = sessionId
  } else claims.jti = randomUUID()
  const sealed = sealPrepared(JSON.stringify(claims), ring.sealingKey, ring.sealingHeader)
  // A compact JWE is base64url segments and dots: its cookie needs no percent-encoding, and need not be scanned.
  vouchUnreservedValue(sealed)
  return sealed
}

/**
 * Opens a session token with any of the secrets (`A256CBC-HS512` or `A256GCM`, as Auth.js reads).
 * @returns the claims, or null when the token is malformed, not ours, tampered with or expired (15 s tolerance)
 */
export function openSessionToken<Payload>(
  secrets: readonly string[],
  salt: string,
  token: string,
  now: number,
): Payload | null {
  const ring = keyringOf(secrets, salt)
  const opened = openCompactJwe(token, ring.candidates, openableEncs, ring.sealingHeader)
  if (!opened) return null
  let claims: unknown
  try {
    claims = JSON.parse(opened.plaintext.toString())
  } catch {
    return null
  }
  if (!isClaimsObject(claims)) return null
  if (!areTimeClaimsValid(claims, now)) return null
  // A session id sealed as the `jti` is read where everything looks for it (see `sessionIdClaimName`).
  const { jti } = claims
  if (typeof jti === 'string' && jti.includes('.') && claims[sessionIdClaimName] === undefined)
    claims[sessionIdClaimName] = jti
  // The shape beyond the registered claims is the app's (its `jwt` callback wrote it); as in Auth.js it is not checked.
  return claims as Payload
}

/**
 * Why `openSessionToken` gave `null` for `token`, in the words Auth.js's `decode` (through `jose`) rejects with: a
 * token no secret decrypts is "no matching decryption secret" (a rotated-out secret, another salt); one that is not
 * a compact JWE, or holds no claims object, or whose time claims fail, gets jose's message for that. Only the
 * rejecting `decode` asks, after the fast path failed; the session check never does.
 */
export function unopenedTokenReason(secrets: readonly string[], salt: string, token: string, now: number): string {
  if (token.split('.').length !== 5) return 'Invalid Compact JWE'
  const opened = openCompactJwe(token, keyringOf(secrets, salt).candidates, openableEncs, undefined)
  if (!opened) return 'no matching decryption secret'
  let claims: unknown
  try {
    claims = JSON.parse(opened.plaintext.toString())
  } catch {
    return 'JWT Claims Set must be a top-level JSON object'
  }
  if (!isClaimsObject(claims)) return 'JWT Claims Set must be a top-level JSON object'
  if (!areTimeClaimsValid(claims, now)) {
    const failed = ['iat', 'exp', 'nbf'].find((name) => !areTimeClaimsValid({ [name]: claims[name] }, now))
    return `"${failed ?? 'exp'}" claim timestamp check failed`
  }
  return 'no matching decryption secret'
}
