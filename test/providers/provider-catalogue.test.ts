/**
 * The provider subpaths are exactly Auth.js's OAuth / OIDC vendors, each module says so itself (its id is its
 * subpath), and docs/providers.md is what the modules generate.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { renderProviderCatalogue } from '../support/provider-catalogue.js'
import { authjsVendorIds } from './authjs-vendor-ids.js'
import { loadVendor, vendorSubpaths } from './vendor-modules.js'

describe('provider catalogue', () => {
  it('has one provider subpath per Auth.js OAuth / OIDC vendor, no more and no fewer', () => {
    expect(vendorSubpaths()).toEqual([...authjsVendorIds].sort())
  })

  it.each([...authjsVendorIds])(
    '%s: the module at that subpath is an OAuth or OIDC provider with that id',
    async (subpath) => {
      const config = (await loadVendor(subpath))({ clientId: 'id', clientSecret: 'secret' })
      // Auth.js's ids are its subpaths but one: `ory-hydra` is the provider `hydra` (authjs-parity.test.ts checks
      // every id against Auth.js's own module).
      expect(config.id).toBe(subpath === 'ory-hydra' ? 'hydra' : subpath)
      expect(['oauth', 'oidc']).toContain(config.type)
      expect(config.name.length).toBeGreaterThan(0)
    },
  )

  it('docs/providers.md is what the provider modules generate (npm run providers:catalogue)', async () => {
    const onDisk = readFileSync(new URL('../../docs/providers.md', import.meta.url), 'utf8')
    expect(onDisk).toBe(await renderProviderCatalogue())
  })
})
