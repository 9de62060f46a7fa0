/**
 * The second-factor challenge on an OAuth sign-in, end to end against a real `oidc-provider` on a loopback port:
 * a user with an enrolled authenticator app is stopped at the challenge after the provider's callback, and signed in
 * only with a code. (Credentials, on memory and PostgreSQL: test/core/factor-enrolment-suite.ts.)
 */
import { Secret, TOTP } from 'otpauth'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemoryAdapter } from '../../adapters/memory.js'
import OIDC from '../../src/providers/oidc.js'
import { CookieJar, csrfToken, origin, send, session, testConfig } from '../support/auth-harness.js'
import { startOidcProvider, type RunningOidcProvider } from '../support/oidc-provider.js'

let op: RunningOidcProvider

beforeAll(async () => {
  op = await startOidcProvider({
    clients: [
      {
        client_id: 'app',
        client_secret: 'app-secret',
        redirect_uris: [`${origin}/auth/callback/idp`],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
  })
})

afterAll(async () => {
  await op?.close()
})

const appCode = (secret: string, offsetSteps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + offsetSteps * 30_000 })

describe('the second-factor challenge after an OIDC sign-in', () => {
  it('stops at the challenge after the callback and signs in with a code', async () => {
    const config = testConfig({
      adapter: MemoryAdapter(),
      providers: [OIDC({ id: 'idp', name: 'IdP', issuer: op.issuer, clientId: 'app', clientSecret: 'app-secret' })],
    })
    const signInWithOp = async (jar: CookieJar) => {
      const token = await csrfToken(config, jar)
      const started = await send(config, '/auth/signin/idp', { jar, form: { csrfToken: token, callbackUrl: '/after' } })
      const result = await op.signInAs(started.headers.get('location') as string, 'alice')
      if (result.mode !== 'query') throw new Error('expected a query response')
      return send(config, `${result.callbackUrl.pathname}${result.callbackUrl.search}`, { jar })
    }

    // Alice signs in without a factor, and enrols one.
    const first = new CookieJar()
    expect((await signInWithOp(first)).headers.get('location')).toBe(`${origin}/after`)
    const factors = async (form: Record<string, string>) =>
      send(config, '/auth/factors', {
        jar: first,
        json: { ...form, csrfToken: await csrfToken(config, first) },
        headers: { accept: 'application/json' },
      })
    const started = (await (await factors({ intent: 'start' })).json()) as { enrolment: string; secret: string }
    expect(
      (await factors({ intent: 'confirm', enrolment: started.enrolment, code: appCode(started.secret) })).status,
    ).toBe(200)

    // Signing in again stops at the challenge: no session until the code.
    const jar = new CookieJar()
    const stopped = await signInWithOp(jar)
    expect(stopped.headers.get('location')).toBe(`${origin}/auth/second-factor`)
    expect(jar.cookies.has('authjs.session-token')).toBe(false)
    expect(await session(config, jar)).toBeNull()
    const answer = async (code: string) =>
      send(config, '/auth/second-factor', {
        jar,
        form: { factor: 'otp', code, csrfToken: await csrfToken(config, jar) },
      })
    expect((await answer('000000')).status).toBe(401)
    const done = await answer(appCode(started.secret, 1))
    expect(done.status).toBe(302)
    expect(done.headers.get('location')).toBe(`${origin}/after`)
    const body = (await session(config, jar)) as { user: { email: string } }
    expect(body.user.email).toBe('alice@example.test')
  })
})
