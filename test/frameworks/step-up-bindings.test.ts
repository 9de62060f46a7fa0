/**
 * `requireRecentAuth` in the bindings (docs/step-up.md): SvelteKit throws its redirect, SolidStart a redirect
 * `Response`, Qwik's request hook `event.redirect`; each lets a recent session through with its sign-in. Sessions
 * are sealed through the real `encode`, one signed in an hour ago and one just now. The decision itself (one
 * module, src/core/step-up.ts) is tested end to end in test/e2e/step-up.test.ts.
 */
import { isRedirect } from '@sveltejs/kit'
import { describe, expect, it } from 'vitest'
import { encode } from '../../src/jwt.js'
import { requireRecentAuth as solidRequireRecentAuth } from '../../src/frameworks/solid-start/index.js'
import { stepUpCalls } from '../../src/frameworks/sveltekit/step-up.js'
import { stepUpOf } from '../../src/frameworks/qwik/server.js'
import { secret, testConfig } from '../support/auth-harness.js'

const origin = 'http://localhost:3000'
const cookieName = 'authjs.session-token'
const now = () => Math.floor(Date.now() / 1000)

async function cookieSignedIn(secondsAgo: number, authTime = now() - secondsAgo): Promise<string> {
  const token = { sub: 'u-ada', name: 'Ada', auth_time: authTime, amr: ['pwd'] }
  return `${cookieName}=${await encode({ token, secret, salt: cookieName })}`
}

function pageRequest(cookie: string): Request {
  return new Request(`${origin}/account/delete?confirm=1`, { headers: { cookie } })
}

const signInPage = `/auth/signin?${new URLSearchParams({
  callbackUrl: `${origin}/account/delete?confirm=1`,
  error: 'ReauthenticationRequired',
}).toString()}`

describe('requireRecentAuth in the bindings', () => {
  it('SvelteKit: throws its redirect (303) for an old session, answers the sign-in of a recent one', async () => {
    const config = testConfig()
    const { requireRecentAuth } = stepUpCalls(async () => config)
    const event = (cookie: string) => ({ request: pageRequest(cookie), url: new URL(`${origin}/account/delete`) })
    const thrown: unknown = await requireRecentAuth(event(await cookieSignedIn(3600)), { maxAge: 300 }).then(
      () => null,
      (error: unknown) => error,
    )
    expect(isRedirect(thrown)).toBe(true)
    expect(thrown).toMatchObject({ status: 303, location: signInPage })
    const signedInAt = now() - 10
    expect(await requireRecentAuth(event(await cookieSignedIn(10, signedInAt)), { maxAge: 300 })).toEqual({
      userId: 'u-ada',
      authTime: signedInAt,
      amr: ['pwd'],
    })
    // A required method the sign-in lacks sends even a recent session to sign in.
    const lacking: unknown = await requireRecentAuth(event(await cookieSignedIn(10)), {
      maxAge: 300,
      factors: ['otp'],
    }).then(
      () => null,
      (error: unknown) => error,
    )
    expect(isRedirect(lacking)).toBe(true)
  })

  it('SolidStart: throws a redirect Response for an old session, answers the sign-in of a recent one', async () => {
    const config = testConfig()
    const thrown: unknown = await solidRequireRecentAuth(pageRequest(await cookieSignedIn(3600)), config, {
      maxAge: 300,
    }).then(
      () => null,
      (error: unknown) => error,
    )
    expect(thrown).toBeInstanceOf(Response)
    const response = thrown instanceof Response ? thrown : new Response()
    expect(response.status).toBe(303)
    // SolidStart's routes live under `/api/auth` unless the app says otherwise.
    expect(response.headers.get('location')).toBe(`${origin}/api${signInPage}`)
    const passed = await solidRequireRecentAuth(pageRequest(await cookieSignedIn(10)), config, { maxAge: 300 })
    expect(passed.userId).toBe('u-ada')
  })

  it('Qwik: the server half answers where to send an old session, and the sign-in of a recent one', async () => {
    const config = testConfig()
    const event = (cookie: string) => ({
      request: pageRequest(cookie),
      url: new URL(`${origin}/account/delete?confirm=1`),
      sharedMap: new Map<string, unknown>(),
      cookie: { set: () => {} },
    })
    expect(await stepUpOf(event(await cookieSignedIn(3600)), config, { maxAge: 300 })).toEqual({
      redirectTo: `${origin}${signInPage}`,
    })
    expect(await stepUpOf(event(await cookieSignedIn(10)), config, { maxAge: 300 })).toMatchObject({
      authentication: { userId: 'u-ada' },
    })
  })
})
