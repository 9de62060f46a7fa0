/**
 * The users of the session-management benchmarks (bench/session-management.bench.ts and its HTTP twin): distinct
 * users signed in over the last 30 days, each token holding what a credentials sign-in leaves in it.
 */
import { newSessionIdClaim, sealedSessionIdClaim, sessionIdClaimName } from '../src/effects/session/session-record.js'
import type { SessionStore } from '../src/types/session-store.js'

const day = 86_400_000

/**
 * The claims of user `i` of a side named `label`: signed in i·7919 minutes modulo 30 days before `now` (so nearly
 * every user's "last seen" is due), with the session id claim a sign-in seals when the side manages sessions.
 */
export function siteUserClaims(label: string, i: number, managed: boolean, now: number): Record<string, unknown> {
  const iat = Math.floor(now / 1000)
  const signedInAt = now - ((i * 7919 * 60_000) % (30 * day))
  return {
    sub: `${label}-user-${i}`,
    name: `User ${i}`,
    email: `user-${i}@example.com`,
    iat,
    exp: iat + 30 * 86_400,
    ...(managed
      ? { [sessionIdClaimName]: sealedSessionIdClaim(newSessionIdClaim({ nowMs: signedInAt }, 'credentials')) }
      : {}),
  }
}

/**
 * Gives `store` a history: 5,000 revoked sessions of other users, which its revocation cache holds while the checks
 * run (so a check's lookup is a miss in a populated cache, as on a site that has been up a while).
 */
export async function revokeSampleSessions(store: Pick<SessionStore, 'revoke'>): Promise<void> {
  for (let i = 0; i < 5_000; i++) await store.revoke(`revoked-user-${i}`, [`sid-${i}`], 3600)
}
