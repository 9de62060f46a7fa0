/**
 * Each vendor's `profile()` against a sample profile in the shape the vendor documents (vendor-samples.ts): the user
 * it makes is the one Auth.js's provider makes of the same profile.
 */
import { describe, expect, it } from 'vitest'
import { customFetch } from '../../src/symbols.js'
import { authjsVendorIds } from './authjs-vendor-ids.js'
import { vendorSamples } from './vendor-samples.js'
import { loadVendor } from './vendor-modules.js'

const tokens = { access_token: 'vendor-access-token', token_type: 'bearer' as const }
// profile() alone must not reach out; a provider that does (Entra's photo) gets this refusal, which it must survive.
const noNetwork = () => Promise.reject(new Error('no network in a profile() test'))

describe('vendor profile() mapping', () => {
  it.each([...authjsVendorIds])('%s maps its documented profile to the user', async (id) => {
    const sample = vendorSamples[id]
    if (!sample) throw new Error(`no sample for ${id}`)
    const Vendor = await loadVendor(id)
    const provider = Vendor({ clientId: 'vendor-client-id', clientSecret: 'vendor-client-secret', [customFetch]: noNetwork, ...sample.options })
    if (!provider.profile) throw new Error(`${id} has no profile()`)
    const user = await provider.profile(sample.profile as never, { ...tokens, ...sample.token })
    expect({ id: user.id, name: user.name ?? null, email: user.email ?? null, image: user.image ?? null }).toEqual(sample.user)
  })
})
