/**
 * Each vendor's `profile()` against a sample profile in the shape the vendor documents (vendor-samples.ts): the user
 * it makes is the one Auth.js's provider makes of the same profile. The few profile() functions that call the vendor
 * (Entra ID's photo, BankID's signed userinfo) reach the vendor stand-in of vendor-authorization-server.ts, since the
 * vendors themselves cannot be reached from here.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { customFetch } from '../../src/types/symbols.js'
import { startFakeVendorServer, type FakeVendorServer } from './fake-vendor-server.js'
import { serveVendor } from './vendor-authorization-server.js'
import { vendorEndpoints } from './vendor-endpoints.js'
import { resolveVendor } from './vendor-sign-in.js'
import { authjsVendorIds } from './authjs-vendor-ids.js'
import { vendorSamples } from './vendor-samples.js'
import { loadVendor } from './vendor-modules.js'

const tokens = { access_token: 'vendor-access-token', token_type: 'bearer' as const }
let fake: FakeVendorServer
beforeAll(async () => {
  fake = await startFakeVendorServer()
})
beforeEach(() => fake.reset())
afterAll(() => fake.close())

describe('vendor profile() mapping', () => {
  it.each([...authjsVendorIds])('%s maps its documented profile to the user', async (id) => {
    const sample = vendorSamples[id]
    if (!sample) throw new Error(`no sample for ${id}`)
    const endpoints = vendorEndpoints[id]
    if (!endpoints) throw new Error(`no endpoints for ${id}`)
    const Vendor = await loadVendor(id)
    const provider = Vendor({
      clientId: 'vendor-client-id',
      clientSecret: 'vendor-client-secret',
      [customFetch]: fake.fetch,
      ...sample.options,
    })
    serveVendor(fake, resolveVendor(provider), sample, endpoints)
    if (!provider.profile) throw new Error(`${id} has no profile()`)
    const user = await provider.profile(sample.profile as never, { ...tokens, ...sample.token })
    expect({ id: user.id, name: user.name ?? null, email: user.email ?? null, image: user.image ?? null }).toEqual(
      sample.user,
    )
  })
})
