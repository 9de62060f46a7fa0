/**
 * Without an adapter, an OAuth user's id must not collide across providers: the same account id at two providers is
 * two people. Auth.js hands out a fresh random UUID each sign-in; Authchart derives a stable UUID from the provider id
 * and the provider's account id (src/security/derived-id.ts), so the same person keeps one `token.sub`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decode } from '../../src/jwt.js'
import OIDC from '../../src/providers/oidc.js'
import { CookieJar, csrfToken, origin, send, testConfig } from '../support/auth-harness.js'
import { startOidcProvider, type RunningOidcProvider } from '../support/oidc-provider.js'

let op: RunningOidcProvider
let config: ReturnType<typeof testConfig>
beforeAll(async () => {
  op = await startOidcProvider({
    clients: [
      {
        client_id: 'app',
        client_secret: 'app-secret',
        redirect_uris: [`${origin}/auth/callback/first`, `${origin}/auth/callback/second`],
      },
    ],
  })
  config = testConfig({
    providers: [
      OIDC({ id: 'first', name: 'First', issuer: op.issuer, clientId: 'app', clientSecret: 'app-secret' }),
      OIDC({ id: 'second', name: 'Second', issuer: op.issuer, clientId: 'app', clientSecret: 'app-secret' }),
    ],
  })
})
afterAll(() => op?.close())

async function subAfterSignIn(providerId: string): Promise<unknown> {
  const jar = new CookieJar()
  const start = await send(config, `/auth/signin/${providerId}`, {
    jar,
    form: { csrfToken: await csrfToken(config, jar) },
  })
  const result = await op.signInAs(new URL(start.headers.get('location') as string), 'alice')
  if (result.mode !== 'query') throw new Error('expected a query response')
  await send(config, `${result.callbackUrl.pathname}${result.callbackUrl.search}`, { jar })
  const token = await decode({
    token: jar.cookies.get('authjs.session-token'),
    secret: config.secret as string,
    salt: 'authjs.session-token',
  })
  return token?.sub
}

describe('OAuth user ids without an adapter', () => {
  it('the same account id at two providers gives two users, and each keeps its id across sign-ins', async () => {
    const first = await subAfterSignIn('first')
    const second = await subAfterSignIn('second')
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(second).not.toBe(first)
    expect(first).not.toBe('alice')
    expect(await subAfterSignIn('first')).toBe(first)
  })
})
