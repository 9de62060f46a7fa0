/**
 * The ID token checks of OpenID Connect Core §3.1.3.7, each a named step with one failure, run in one place and in
 * this order: algorithm, signature, then the claims. openid-client v6 skips the signature of an ID token that came
 * straight from the token endpoint (TLS is deemed enough); Authchart verifies it anyway, so a token endpoint answer
 * that was tampered with, or an OP that signs with a key it does not publish, is refused.
 */
import {
  compactVerify,
  decodeProtectedHeader,
  errors as joseErrors,
  type CompactVerifyGetKey,
  type JWTPayload,
} from 'jose'
import { callbackFailure, loggable } from './oauth-failure.js'

/** The key an ID token must verify with: the OP's JWKS, or the client secret bytes for an HS* algorithm. */
export type IdTokenKey = CompactVerifyGetKey | Uint8Array

/** What a valid ID token must satisfy. */
export interface IdTokenExpectations {
  /** The issuer; Microsoft's multi-tenant issuers contain `{tenantid}`, filled from the token's `tid` claim. */
  issuer: string
  clientId: string
  /** Signing algorithms accepted: never `none`, and HS* only when the client is configured for it. */
  algorithms: readonly string[]
  key: IdTokenKey
  /** The flow's nonce; when absent, the token must carry no nonce either. */
  expectedNonce?: string
  /**
   * A refresh: the token repeats the original sign-in's nonce (OIDC Core §12.2), which is not kept, so the nonce is
   * not checked. The refresh token already binds the answer to that sign-in.
   */
  nonceUnknown?: boolean
  /** Epoch seconds. */
  now: number
  clockToleranceSeconds: number
}

/** Seconds of clock difference between us and the OP that `exp` and `iat` forgive (openid-client's default). */
export const idTokenClockToleranceSeconds = 30

const asymmetricAlgorithms = /^(RS|PS|ES)(256|384|512)$|^EdDSA$|^Ed25519$/

/** Signing algorithms accepted from an OP: the client's configured one, else the OP's asymmetric ones, else RS256. */
export function acceptedIdTokenAlgorithms(
  configured: string | undefined,
  advertised: readonly string[] | undefined,
): string[] {
  if (configured) return [configured]
  const asymmetric = (advertised ?? []).filter((alg) => asymmetricAlgorithms.test(alg))
  // OIDC Discovery §3: RS256 is the algorithm every OP must support, so it is the default when nothing else is known.
  return asymmetric.length > 0 ? asymmetric : ['RS256']
}

const fail = (reason: string, message: string, details?: Record<string, unknown>, err?: unknown) =>
  callbackFailure('id_token', message, { reason, ...details }, err)

// OIDC Core §3.1.3.7 (6, 7): the alg must be the one registered or advertised; `none` is never acceptable here.
function checkAlgorithm(idToken: string, algorithms: readonly string[]): string {
  let alg: unknown
  try {
    alg = decodeProtectedHeader(idToken).alg
  } catch (err) {
    throw fail('malformed', 'id token is not a compact JWS', undefined, err)
  }
  if (typeof alg !== 'string' || alg === 'none' || !algorithms.includes(alg)) {
    throw fail('alg', 'id token is signed with an algorithm that is not accepted', {
      expected: algorithms,
      received: loggable(alg),
    })
  }
  return alg
}

// OIDC Core §3.1.3.7 (6): the signature must verify with the OP's published key (or the client secret for HS*).
async function checkSignature(idToken: string, alg: string, key: IdTokenKey): Promise<JWTPayload> {
  let payload: Uint8Array
  try {
    const verified =
      key instanceof Uint8Array
        ? await compactVerify(idToken, key, { algorithms: [alg] })
        : await compactVerify(idToken, key, { algorithms: [alg] })
    payload = verified.payload
  } catch (err) {
    if (err instanceof joseErrors.JWKSTimeout)
      throw callbackFailure('timeout', 'fetching the provider JWKS timed out', { endpoint: 'jwks' }, err)
    const known =
      err instanceof joseErrors.JWSSignatureVerificationFailed ||
      err instanceof joseErrors.JWKSNoMatchingKey ||
      err instanceof joseErrors.JWKSMultipleMatchingKeys
    throw fail(
      known ? 'signature' : 'jwks',
      known ? 'id token signature does not verify with the provider keys' : 'provider keys could not be used',
      { alg },
      err,
    )
  }
  let claims: unknown
  try {
    claims = JSON.parse(new TextDecoder().decode(payload))
  } catch (err) {
    throw fail('malformed', 'id token payload is not JSON', undefined, err)
  }
  if (typeof claims !== 'object' || claims === null || Array.isArray(claims))
    throw fail('malformed', 'id token payload is not a JSON object')
  return claims as JWTPayload
}

// OIDC Core §3.1.3.7 (2): iss must exactly match the issuer we discovered.
function checkIssuer(claims: JWTPayload, issuer: string): void {
  const expected =
    issuer.includes('{tenantid}') && typeof claims.tid === 'string' ? issuer.replace('{tenantid}', claims.tid) : issuer
  if (claims.iss !== expected)
    throw fail('iss', 'id token iss is not the provider issuer', { expected, received: loggable(claims.iss) })
}

// OIDC Core §3.1.3.7 (3): aud must contain our client_id.
function checkAudience(claims: JWTPayload, clientId: string): void {
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud]
  if (!audiences.includes(clientId))
    throw fail('aud', 'id token aud does not name this client', { expected: clientId, received: claims.aud })
}

// OIDC Core §3.1.3.7 (4, 5): with several audiences, azp must be present and be us; an azp present must be us.
function checkAuthorizedParty(claims: JWTPayload, clientId: string): void {
  const several = Array.isArray(claims.aud) && claims.aud.length > 1
  if ((several || claims.azp !== undefined) && claims.azp !== clientId) {
    throw fail(
      'azp',
      several ? 'id token has other audiences and azp is not this client' : 'id token azp is not this client',
      {
        expected: clientId,
        received: loggable(claims.azp),
        audiences: claims.aud,
      },
    )
  }
}

// OIDC Core §3.1.3.7 (9): the current time must be before exp.
function checkExpiry(claims: JWTPayload, now: number, tolerance: number): void {
  if (typeof claims.exp !== 'number') throw fail('exp', 'id token has no numeric exp')
  if (claims.exp <= now - tolerance) throw fail('exp', 'id token has expired', { exp: claims.exp, now })
}

// OIDC Core §3.1.3.7 (10): iat must be present; a token issued in the future comes from a wrong clock or a forgery.
function checkIssuedAt(claims: JWTPayload, now: number, tolerance: number): void {
  if (typeof claims.iat !== 'number') throw fail('iat', 'id token has no numeric iat')
  if (claims.iat > now + tolerance) throw fail('iat', 'id token iat is in the future', { iat: claims.iat, now })
}

// OIDC Core §3.1.3.7 (11): the nonce binds the token to this browser's flow; replayed tokens carry another one.
function checkNonce(claims: JWTPayload, expectedNonce: string | undefined): void {
  if (expectedNonce === undefined) {
    if (claims.nonce !== undefined)
      throw callbackFailure('nonce', 'id token carries a nonce this flow did not send', { received: 'present' })
    return
  }
  if (claims.nonce !== expectedNonce) {
    throw callbackFailure('nonce', 'id token nonce does not match the flow', {
      received: claims.nonce === undefined ? 'missing' : 'mismatch',
    })
  }
}

// OIDC Core §2: sub is required; it is the only stable identifier of the end-user at this issuer.
function checkSubject(claims: JWTPayload): void {
  if (typeof claims.sub !== 'string' || claims.sub.length === 0) throw fail('sub', 'id token has no sub')
}

/**
 * Verifies an ID token and returns its claims.
 * @throws OAuthCallbackError with `cause.check` `id_token` (and `reason` `malformed`, `alg`, `signature`, `jwks`,
 *   `iss`, `aud`, `azp`, `exp`, `iat` or `sub`), `nonce`, or `timeout` (JWKS fetch)
 * @see https://openid.net/specs/openid-connect-core-1_0.html#IDTokenValidation
 */
export async function checkIdToken(idToken: string, expect: IdTokenExpectations): Promise<JWTPayload> {
  const alg = checkAlgorithm(idToken, expect.algorithms)
  const claims = await checkSignature(idToken, alg, expect.key)
  checkIssuer(claims, expect.issuer)
  checkAudience(claims, expect.clientId)
  checkAuthorizedParty(claims, expect.clientId)
  checkExpiry(claims, expect.now, expect.clockToleranceSeconds)
  checkIssuedAt(claims, expect.now, expect.clockToleranceSeconds)
  if (!expect.nonceUnknown) checkNonce(claims, expect.expectedNonce)
  checkSubject(claims)
  return claims
}
