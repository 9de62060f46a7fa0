/**
 * Loads the vendor provider modules under src/providers by subpath name, the way `authchart/providers/<id>` resolves.
 */
import { readdirSync } from 'node:fs'
import type { OAuthConfigOfAnyProfile } from '../../src/providers-internal/normalize-oauth.js'
import { nonVendorProviderModules } from './authjs-vendor-ids.js'

const providersDir = new URL('../../src/providers/', import.meta.url)

/** A vendor factory as an app calls it: `Vendor(options)`. */
export type VendorFactory = (options?: Record<string, unknown>) => OAuthConfigOfAnyProfile

/** Every module under src/providers that is not a generic provider or a building block: the vendor subpaths. */
export function vendorSubpaths(): string[] {
  const nonVendor: readonly string[] = nonVendorProviderModules
  return readdirSync(providersDir)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => file.slice(0, -'.ts'.length))
    .filter((name) => !nonVendor.includes(name))
    .sort()
}

/** The default export of `src/providers/<subpath>.ts`. */
export async function loadVendor(subpath: string): Promise<VendorFactory> {
  const module = (await import(new URL(`${subpath}.ts`, providersDir).href)) as { default: VendorFactory }
  return module.default
}
