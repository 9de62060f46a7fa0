/**
 * A userinfo answer that is a signed JWT (`application/jwt`, OIDC Core §5.3.2), fetched and verified by the
 * provider itself: the OAuth layer takes a JWT userinfo answer without checking its signature, so a vendor that signs
 * its userinfo (BankID Norway) verifies it here, against the issuer's JWKS, before `profile()` trusts a claim.
 * Requests go through the provider's `customFetch` when it has one, with a timeout, like the vendor's other calls.
 */
import { createRemoteJWKSet, customFetch as joseCustomFetch, jwtVerify, type JWTPayload } from 'jose'
import { OAuthCallbackError } from '../errors.js'
import type { FetchFunction } from '../types/symbols.js'
import { trimSlash } from './names.js'

const timeoutMs = 3000

interface Discovery {
  issuer: string
  userinfo_endpoint: string
  jwks_uri: string
}

async function getJson(send: FetchFunction, url: string): Promise<unknown> {
  const response = await send(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs) })
  if (!response.ok)
    throw new OAuthCallbackError(`discovery answered ${response.status}`, {
      check: 'userinfo',
      status: response.status,
    })
  return response.json()
}

function isDiscovery(value: unknown): value is Discovery {
  const record = value as Partial<Record<keyof Discovery, unknown>> | null
  return (
    typeof record?.issuer === 'string' &&
    typeof record.userinfo_endpoint === 'string' &&
    typeof record.jwks_uri === 'string'
  )
}

/**
 * The verified claims of `issuer`'s signed userinfo answer for `accessToken`.
 * @param subject the verified ID token's `sub`: the userinfo must describe the same person (OIDC Core §5.3.2)
 * @throws OAuthCallbackError (`cause.check` `userinfo`) when discovery or userinfo fails, the signature or issuer does
 *   not verify, or the subject differs
 */
export async function verifiedUserinfo(
  issuer: string,
  accessToken: string,
  subject: string,
  fetchFunction?: FetchFunction,
): Promise<JWTPayload> {
  const send = fetchFunction ?? fetch
  const discovery = await getJson(send, `${trimSlash(issuer)}/.well-known/openid-configuration`)
  if (!isDiscovery(discovery))
    throw new OAuthCallbackError('discovery document lacks userinfo_endpoint or jwks_uri', { check: 'userinfo' })
  const response = await send(discovery.userinfo_endpoint, {
    headers: { accept: 'application/jwt', authorization: `Bearer ${accessToken}` },
    signal: AbortSignal.timeout(timeoutMs),
  })
  if (!response.ok)
    throw new OAuthCallbackError(`userinfo answered ${response.status}`, { check: 'userinfo', status: response.status })
  const keys = createRemoteJWKSet(new URL(discovery.jwks_uri), { timeoutDuration: timeoutMs, [joseCustomFetch]: send })
  let claims: JWTPayload
  try {
    ;({ payload: claims } = await jwtVerify(await response.text(), keys, { issuer: discovery.issuer }))
  } catch (err) {
    throw new OAuthCallbackError('userinfo JWT did not verify', {
      check: 'userinfo',
      reason: (err as { code?: string }).code ?? 'invalid',
    })
  }
  if (claims.sub !== subject)
    throw new OAuthCallbackError('userinfo describes another subject than the ID token', { check: 'userinfo' })
  return claims
}
