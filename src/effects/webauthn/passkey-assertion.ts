/**
 * A passkey's authentication ceremony, once, for every flow that asks for one: the passkey sign-in (webauthn-flow.ts)
 * and the passkey answering a second-factor challenge (passkey-second-factor.ts). The request options, reading the
 * browser's posted credential and verifying its assertion with `@simplewebauthn/server`. Counters are not compared
 * here: each caller applies the one rule, `isAuthenticatorCounterRegressed` (the library is given a counter of 0).
 */
import type * as WebAuthnServer from '@simplewebauthn/server'
import type { AdapterAuthenticator } from '../../types/adapters.js'
import type { RelyingParty, WebAuthnConfig } from '../../types/providers.js'
import { fromBase64, transportsFromString } from '../webauthn-encoding.js'

type Library = typeof WebAuthnServer

/**
 * The optional peer dependency, loaded on first use so apps without passkeys never need it. Bundlers (Next.js's
 * Turbopack and webpack) are told to leave the import to Node: resolved at build time, it would fail every app built
 * without the package.
 */
export async function webAuthnLibrary(): Promise<Library> {
  return import(/* webpackIgnore: true */ /* turbopackIgnore: true */ '@simplewebauthn/server')
}

/** A browser's JSON-encoded PublicKeyCredential. */
export type PostedCredential = { id: string; response: Record<string, unknown> } & Record<string, unknown>

/** The JSON-encoded PublicKeyCredential a form field carries (the `data` field), if it looks like one. */
export function postedCredential(data: unknown): PostedCredential | undefined {
  if (typeof data !== 'string' || data.length > 64 * 1024) return undefined
  try {
    const parsed: unknown = JSON.parse(data)
    if (typeof parsed !== 'object' || parsed === null) return undefined
    const record = parsed as Record<string, unknown>
    if (typeof record.id !== 'string' || typeof record.response !== 'object' || record.response === null)
      return undefined
    return record as PostedCredential
  } catch {
    return undefined
  }
}

/** Request options for `navigator.credentials.get`; no held passkey listed: any discoverable one may answer. */
export async function authenticationOptions(input: {
  provider: WebAuthnConfig
  relyingParty: RelyingParty
  /** base64url */
  challenge: string
  held: readonly AdapterAuthenticator[]
}): Promise<Record<string, unknown>> {
  const { generateAuthenticationOptions } = await webAuthnLibrary()
  return {
    ...(await generateAuthenticationOptions({
      ...input.provider.authenticationOptions,
      rpID: input.relyingParty.id,
      challenge: new Uint8Array(Buffer.from(input.challenge, 'base64url')),
      allowCredentials: input.held.map((a) => ({
        id: Buffer.from(a.credentialID, 'base64').toString('base64url'),
        transports: transportsFromString(a.transports),
      })),
    })),
  }
}

export type AssertionResult =
  { verified: true; newCounter: number; userVerified: boolean } | { verified: false; reason: string }

/**
 * Verifies `response` as an assertion of the stored passkey over the expected challenge (a value, or a test of the
 * value the browser signed), for this relying party's origin and id.
 */
export async function verifyAssertion(input: {
  provider: WebAuthnConfig
  relyingParty: RelyingParty
  stored: AdapterAuthenticator
  response: PostedCredential
  expectedChallenge: string | ((challenge: string) => boolean)
}): Promise<AssertionResult> {
  const { provider, relyingParty, stored, response } = input
  try {
    const { verifyAuthenticationResponse } = await webAuthnLibrary()
    const verified = await verifyAuthenticationResponse({
      ...provider.verifyAuthenticationOptions,
      response: response as unknown as Parameters<Library['verifyAuthenticationResponse']>[0]['response'],
      expectedChallenge: input.expectedChallenge,
      expectedOrigin: relyingParty.origin,
      expectedRPID: relyingParty.id,
      // 0: the caller compares counters itself (isAuthenticatorCounterRegressed).
      credential: {
        id: response.id,
        publicKey: fromBase64(stored.credentialPublicKey),
        counter: 0,
        transports: transportsFromString(stored.transports),
      },
    })
    if (!verified.verified) return { verified: false, reason: 'authentication response not verified' }
    const info = verified.authenticationInfo
    return { verified: true, newCounter: info.newCounter, userVerified: info.userVerified === true }
  } catch (error) {
    return { verified: false, reason: error instanceof Error ? error.message : 'verification threw' }
  }
}
