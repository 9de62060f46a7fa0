/**
 * The sign-in claims (`auth_time`, `amr`): computed once when the session is issued, kept as they are by every later
 * call of the `jwt` callback. Through `Auth()` with the test credentials provider; the cookie is opened with the real
 * `decode`.
 */
import { describe, expect, it } from 'vitest'
import {
  keptSignInClaims,
  signInClaimsOf,
  withoutSignInClaims,
} from '../../../src/effects/session/sign-in-authentication.js'
import { decode, encode } from '../../../src/jwt.js'
import type { JWT } from '../../../src/types/jwt.js'
import { CookieJar, csrfToken, secret, send, signIn, testConfig } from '../../support/auth-harness.js'

const cookieName = 'authjs.session-token'

async function tokenOf(jar: CookieJar): Promise<JWT | null> {
  return decode({ token: jar.cookies.get(cookieName), secret, salt: cookieName })
}

describe('signInClaimsOf', () => {
  it('names the method from the account type, at the request clock, with a second factor when one was passed', () => {
    expect(signInClaimsOf({ now: 1000 }, 'credentials')).toEqual({ auth_time: 1000, amr: ['pwd'] })
    expect(signInClaimsOf({ now: 1000 }, 'email').amr).toEqual(['email'])
    expect(signInClaimsOf({ now: 1000 }, 'oidc').amr).toEqual(['fed'])
    expect(signInClaimsOf({ now: 1000 }, 'credentials', { secondFactorMethod: 'otp' }).amr).toEqual([
      'mfa',
      'otp',
      'pwd',
    ])
    expect(signInClaimsOf({ now: 1000 }, undefined).amr).toEqual([])
  })

  it('keeps only well-formed claims, and strips them from a token', () => {
    expect(keptSignInClaims({ auth_time: 5, amr: ['pwd'] })).toEqual({ auth_time: 5, amr: ['pwd'] })
    expect(keptSignInClaims({ auth_time: '5', amr: [1] })).toEqual({})
    expect(withoutSignInClaims({ sub: 'u', auth_time: 5, amr: ['pwd'] })).toEqual({ sub: 'u' })
  })
})

describe('the session token’s sign-in claims', () => {
  it('are set at sign-in, seen by the jwt callback, and put back when the callback rebuilds the token', async () => {
    const seen: JWT[] = []
    const config = testConfig({
      callbacks: {
        jwt: ({ token, trigger }) => {
          if (trigger === 'signIn') seen.push(token)
          // A callback that keeps only what it knows, at sign-in and on every check.
          return { sub: token.sub, name: token.name }
        },
      },
    })
    const jar = new CookieJar()
    const before = Math.floor(Date.now() / 1000)
    await signIn(config, jar, 'ada')
    expect(seen[0]).toMatchObject({ sub: 'u-ada', amr: ['pwd'] })
    const signedIn = await tokenOf(jar)
    expect(signedIn?.amr).toEqual(['pwd'])
    expect(signedIn?.auth_time).toBeGreaterThanOrEqual(before)
    await send(config, '/auth/session', { jar })
    expect(await tokenOf(jar)).toMatchObject({ auth_time: signedIn?.auth_time, amr: ['pwd'] })
  })

  it('are not moved by update(), whatever the callback copies into the token', async () => {
    const config = testConfig({
      callbacks: {
        jwt: ({ token, trigger, session }) =>
          trigger === 'update' && session && typeof session === 'object' ? { ...token, ...session } : token,
      },
    })
    const jar = new CookieJar()
    await signIn(config, jar, 'ada')
    const signedIn = await tokenOf(jar)
    const forged = { auth_time: Number(signedIn?.auth_time) + 3600, amr: ['hwk', 'mfa', 'otp'], name: 'Ada L.' }
    const updated = await send(config, '/auth/session', {
      jar,
      json: { csrfToken: await csrfToken(config, jar), data: forged },
    })
    expect(updated.status).toBe(200)
    const after = await tokenOf(jar)
    // The update itself went through; the sign-in claims did not move.
    expect(after).toMatchObject({ name: 'Ada L.', auth_time: signedIn?.auth_time, amr: ['pwd'] })
  })

  it('a token from before they were recorded gets none on a session check', async () => {
    const config = testConfig({ callbacks: { jwt: ({ token }) => ({ ...token, auth_time: 1, amr: ['mfa'] }) } })
    const jar = new CookieJar()
    jar.cookies.set(cookieName, await encode({ token: { sub: 'u-ada', name: 'Ada' }, secret, salt: cookieName }))
    await send(config, '/auth/session', { jar })
    const after = await tokenOf(jar)
    expect(after?.sub).toBe('u-ada')
    expect(after?.auth_time).toBeUndefined()
    expect(after?.amr).toBeUndefined()
  })
})
