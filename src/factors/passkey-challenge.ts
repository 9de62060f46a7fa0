/**
 * The WebAuthn challenge of a passkey answering a second-factor challenge. It is derived from the challenge's own id
 * (random, kept only in the stored sign-in) with the app's secret, so it needs no storage of its own, is the same for
 * every options request of that sign-in, and differs for every other sign-in: an assertion made for one stopped
 * sign-in cannot answer another. Secrets are tried newest first, so a rotation during a challenge keeps it working.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'

const label = 'authchart second-factor passkey challenge:'

/** The base64url challenge the options carry for the second-factor challenge `challengeId`. */
export function passkeyChallengeFor(secret: string, challengeId: string): string {
  return createHmac('sha256', secret)
    .update(label + challengeId)
    .digest('base64url')
}

/** Whether the challenge a browser signed (base64url) is the one of `challengeId` under any of the app's secrets. */
export function isPasskeyChallengeOf(secrets: readonly string[], challengeId: string, signed: string): boolean {
  if (challengeId === '') return false
  const presented = Buffer.from(signed, 'base64url')
  return secrets.some((secret) => {
    const expected = Buffer.from(passkeyChallengeFor(secret, challengeId), 'base64url')
    return expected.length === presented.length && timingSafeEqual(expected, presented)
  })
}
