/**
 * A userinfo answer that is a signed JWT (`application/jwt`, OIDC Core §5.3.2) is verified before openid-client
 * reads it. openid-client checks such an answer's claims but verifies its signature only with non-repudiation
 * checks enabled, so without this step anyone able to answer for the userinfo endpoint (a compromised proxy, a
 * misrouted request) could sign the profile with a key of their own. The same keys and algorithms as the ID token's.
 */
import { jwtVerify, type JWTPayload } from 'jose'
import type { IdTokenKey } from './id-token-checks.js'
import { callbackFailure } from './oauth-failure.js'

export interface SignedUserinfoExpectations {
  issuer: string
  clientId: string
  algorithms: string[]
  key: IdTokenKey
}

const isJwtAnswer = (response: Response) =>
  (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() === 'application/jwt'

/**
 * The userinfo answer, unchanged when it is JSON, or re-created from its text once its signature, issuer and
 * audience verify.
 * @throws OAuthCallbackError with `cause.check` `userinfo_signature` when a signed answer does not verify
 */
export async function checkSignedUserinfo(response: Response, expect: SignedUserinfoExpectations): Promise<Response> {
  if (!response.ok || !isJwtAnswer(response)) return response
  const jwt = await response.text()
  let payload: JWTPayload
  try {
    ;({ payload } = await jwtVerify(jwt, expect.key, { algorithms: expect.algorithms }))
  } catch (err) {
    throw callbackFailure('userinfo_signature', 'signed userinfo does not verify', { reason: 'signature' }, err)
  }
  // OIDC Core §5.3.2: a signed answer SHOULD carry iss and aud; when it does, they must be the OP and this client.
  if (payload.iss !== undefined && payload.iss !== expect.issuer)
    throw callbackFailure('userinfo_signature', 'signed userinfo names another issuer', { reason: 'iss' })
  const audiences = typeof payload.aud === 'string' ? [payload.aud] : (payload.aud ?? [expect.clientId])
  if (!audiences.includes(expect.clientId))
    throw callbackFailure('userinfo_signature', 'signed userinfo is meant for another client', { reason: 'aud' })
  return new Response(jwt, { status: response.status, headers: response.headers })
}
