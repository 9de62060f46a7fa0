/**
 * One vendor sign-in through `Auth()`, as a browser would do it, against the vendor stand-in of
 * vendor-authorization-server.ts: POST /signin/<id>, the vendor's answer, the callback (a GET, or a POST for
 * form_post vendors), then the session. Shared by the conformance and the vendor quirk tests.
 */
import { expect } from 'vitest'
import { readEndpoint } from '../../src/providers-internal/oauth-endpoint.js'
import { customFetch } from '../../src/types/symbols.js'
import type { Account, User } from '../../src/types/index.js'
import { CookieJar, csrfToken, send, session, testConfig } from '../support/auth-harness.js'
import type { FakeVendorServer } from './fake-vendor-server.js'
import { clientId, clientSecret, serveVendor } from './vendor-authorization-server.js'
import { vendorEndpoints } from './vendor-endpoints.js'
import { loadVendor } from './vendor-modules.js'
import { vendorSamples, type VendorSample } from './vendor-samples.js'
import { resolveVendor } from './vendor-sign-in.js'

/** Starts a sign-in with vendor `id`; `options` go to the factory, `sample` replaces parts of the vendor's sample. */
export async function startVendorSignIn(
  fake: FakeVendorServer,
  id: string,
  options: Record<string, unknown> = {},
  sample: Partial<VendorSample> = {},
) {
  const base = vendorSamples[id]
  const endpoints = vendorEndpoints[id]
  if (!base || !endpoints) throw new Error(`no sample or endpoints for ${id}`)
  const vendorSample: VendorSample = { ...base, ...sample }
  const Vendor = await loadVendor(id)
  const provider = Vendor({ clientId, clientSecret, [customFetch]: fake.fetch, ...vendorSample.options, ...options })
  const resolved = resolveVendor(provider)
  const vendor = serveVendor(fake, resolved, vendorSample, endpoints)
  const signIns: { user: User; account: Account | null }[] = []
  const config = testConfig({
    providers: [provider],
    events: {
      signIn: (message) => {
        signIns.push(message)
      },
    },
  })
  const jar = new CookieJar()
  const start = await send(config, `/auth/signin/${provider.id}`, {
    jar,
    form: { csrfToken: await csrfToken(config, jar), callbackUrl: '/after' },
  })
  expect(start.status).toBe(302)
  const authorizationUrl = new URL(start.headers.get('location') ?? '')

  /** The vendor redirects back; `extra` adds or replaces callback parameters. Returns Auth()'s answer. */
  async function complete(extra: Record<string, string> = {}): Promise<Response> {
    const callback = vendor.authorize(authorizationUrl)
    for (const [key, value] of Object.entries(extra)) callback.set(key, value)
    const formPost = readEndpoint(resolved.authorization).params.response_mode === 'form_post'
    return formPost
      ? send(config, `/auth/callback/${provider.id}`, {
          jar,
          form: { ...Object.fromEntries(callback), ...vendorSample.formPost, ...extra },
        })
      : send(config, `/auth/callback/${provider.id}?${callback}`, { jar })
  }

  /** The session's user (or undefined when there is no session). */
  async function sessionUser(): Promise<User | undefined> {
    return ((await session(config, jar)) as { user?: User } | null)?.user
  }

  return { sample: vendorSample, resolved, vendor, config, jar, signIns, authorizationUrl, complete, sessionUser }
}

/** The error Auth() redirected to (`?error=`), or null after a successful sign-in. */
export function errorOf(response: Response): string | null {
  const location = response.headers.get('location')
  return location ? new URL(location).searchParams.get('error') : null
}
