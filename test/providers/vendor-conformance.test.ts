/**
 * Conformance of every vendor provider module: the whole sign-in through `Auth()`, from POST /signin/<id> to the
 * session, against a local authorization server that answers as that vendor documents (vendor-authorization-server.ts).
 * That server is a stand-in for the vendors' services, which no machine here can reach; everything on Authchart's
 * side is the real code path: CSRF, the flow cookie, PKCE / state / nonce, discovery, client authentication, ID token
 * verification, userinfo, profile(), the session.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { readEndpoint } from '../../src/providers-internal/oauth-endpoint.js'
import type { User } from '../../src/types/index.js'
import { origin } from '../support/auth-harness.js'
import { authjsVendorIds } from './authjs-vendor-ids.js'
import { startFakeVendorServer, type FakeVendorServer } from './fake-vendor-server.js'
import { startVendorSignIn } from './vendor-auth-flow.js'
import { clientId } from './vendor-authorization-server.js'

let fake: FakeVendorServer
beforeAll(async () => {
  fake = await startFakeVendorServer()
})
beforeEach(() => fake.reset())
afterAll(() => fake.close())

/** The session's user: the display fields profile() gave, a `null` answered as `null` (as Auth.js answers it). */
function sessionUser(user: Pick<User, 'name' | 'email' | 'image'>): Record<string, string | null> {
  const out: Record<string, string | null> = {}
  for (const key of ['name', 'email', 'image'] as const) {
    const value = user[key]
    if (typeof value === 'string' || value === null) out[key] = value
  }
  return out
}

describe('every vendor provider signs in through Auth() against a stand-in of its authorization server', () => {
  it.each(authjsVendorIds)('%s', async (id) => {
    const {
      sample,
      resolved,
      vendor,
      signIns,
      authorizationUrl,
      complete,
      sessionUser: currentUser,
    } = await startVendorSignIn(fake, id)
    expect(`${authorizationUrl.origin}${authorizationUrl.pathname}`).toBe(vendor.authorizationEndpoint)
    expect(authorizationUrl.searchParams.get('client_id')).toBe(clientId)
    // The provider's id, which is its subpath except for Auth.js's `ory-hydra` module (id `hydra`).
    const providerId = resolved.id
    expect(authorizationUrl.searchParams.get('redirect_uri')).toBe(`${origin}/auth/callback/${providerId}`)
    expect(authorizationUrl.searchParams.get('response_type')).toBe(id === 'azure-devops' ? 'Assertion' : 'code')
    for (const [key, value] of Object.entries(readEndpoint(resolved.authorization).params))
      expect(authorizationUrl.searchParams.get(key)).toBe(value)

    const response = await complete()
    expect(vendor.refusals).toEqual([])
    expect(response.headers.get('location')).toBe(`${origin}/after`)

    expect(await currentUser()).toEqual(sessionUser(sample.user))
    expect(signIns).toHaveLength(1)
    expect(signIns[0]?.account).toMatchObject({
      provider: providerId,
      providerAccountId: sample.user.id,
      access_token: 'vendor-access-token',
    })
    expect(fake.requestsTo(vendor.tokenEndpoint)).toHaveLength(1)
  })
})
