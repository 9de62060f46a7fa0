/**
 * The rule that keeps a migrating app's users: for every vendor under src/providers (the generated list, not a
 * hand-picked few), the provider `id`, the callback path built from it, the provider `type`, and the value that
 * becomes `Account.providerAccountId` for the vendor's sample profile (vendor-samples.ts) equal those of
 * `@auth/core/providers/<subpath>` 0.41.3, imported here and called with the same options. Auth.js's
 * `providerAccountId` is its provider's `profile(sample).id`, or the `sub`-then-`id` rule of its default profile
 * when the provider has none. Differences kept on purpose in other fields are in docs/providers.md.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { customFetch } from '../../src/types/symbols.js'
import { startFakeVendorServer, type FakeVendorServer } from './fake-vendor-server.js'
import { serveVendor } from './vendor-authorization-server.js'
import { vendorEndpoints } from './vendor-endpoints.js'
import { clientId, clientSecret, resolveVendor } from './vendor-sign-in.js'
import { vendorSamples } from './vendor-samples.js'
import { loadVendor, vendorSubpaths } from './vendor-modules.js'
import { nonVendorProviderModules } from './authjs-vendor-ids.js'

type Profiler = (profile: Record<string, unknown>, tokens: Record<string, unknown>) => unknown
interface AuthJsProvider {
  id: string
  type: string
  profile?: Profiler
  options?: { id?: string; profile?: Profiler }
}

/** `@auth/core/providers/<subpath>`'s factory, loaded as an app loads it. */
async function loadAuthJsVendor(subpath: string): Promise<(options: Record<string, unknown>) => AuthJsProvider> {
  const module = (await import(`@auth/core/providers/${subpath}`)) as {
    default: (options: Record<string, unknown>) => AuthJsProvider
  }
  return module.default
}

/** The id Auth.js stores as `providerAccountId`: its merged `profile()`'s `id`, else `sub ?? id` (its default). */
async function authJsAccountId(
  provider: AuthJsProvider,
  profile: Record<string, unknown>,
  tokens: Record<string, unknown>,
): Promise<string | undefined> {
  const profiler = provider.options?.profile ?? provider.profile
  const mapped = profiler ? ((await profiler(profile, tokens)) as { id?: unknown }) : undefined
  const id = profiler ? mapped?.id : (profile.sub ?? profile.id)
  // Ids are strings or numbers (adapters store them as text); anything else is no id at all.
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined
}

const tokens = { access_token: 'vendor-access-token', token_type: 'bearer' }
let fake: FakeVendorServer
beforeAll(async () => {
  fake = await startFakeVendorServer()
})
beforeEach(() => fake.reset())
afterEach(() => vi.unstubAllGlobals())
afterAll(() => fake.close())

/**
 * The profile as Auth.js's provider reads it, where its types ask for another shape than the vendor answers: its
 * Threads profile() reads the account under `data` (Authchart reads either shape, the same account either way).
 */
const authJsShapedProfile: Record<string, (profile: Record<string, unknown>) => Record<string, unknown>> = {
  threads: (profile) => ({ data: profile }),
}

describe('every vendor keyed as Auth.js keys it', () => {
  it.each(vendorSubpaths())(
    '%s: id, callback path, type and providerAccountId equal Auth.js 0.41.3',
    async (subpath) => {
      const sample = vendorSamples[subpath]
      const endpoints = vendorEndpoints[subpath]
      if (!sample || !endpoints) throw new Error(`no sample for ${subpath}`)
      const options = { clientId, clientSecret, ...sample.options }
      const ours = (await loadVendor(subpath))({ ...options, [customFetch]: fake.fetch })
      const theirs = (await loadAuthJsVendor(subpath))(options)
      const resolved = resolveVendor(ours)
      serveVendor(fake, resolved, sample, endpoints)

      const theirId = theirs.options?.id ?? theirs.id
      expect(ours.id).toBe(theirId)
      expect(new URL(resolved.callbackUrl).pathname).toBe(`/auth/callback/${theirId}`)
      expect(ours.type).toBe(theirs.type)

      const sampleTokens = { ...tokens, ...sample.token }
      if (!resolved.profile) throw new Error(`${subpath}: the resolved provider has no profile()`)
      const user = (await resolved.profile(sample.profile, sampleTokens as never)) as { id?: unknown }
      // Auth.js's Entra ID profile() fetches the photo with the global fetch from Microsoft Graph, which no machine here
      // reaches: that one request goes to the same vendor stand-in Authchart's own profile() is given.
      const realFetch = globalThis.fetch
      vi.stubGlobal('fetch', (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
        vi.stubGlobal('fetch', realFetch)
        return fake.fetch(input, init)
      })
      const theirProfile = authJsShapedProfile[subpath]?.(sample.profile) ?? sample.profile
      const theirAccountId = await authJsAccountId(theirs, theirProfile, sampleTokens)
      expect(theirAccountId).toBeDefined()
      expect(String(user.id)).toBe(theirAccountId)
    },
  )
})

/**
 * The modules under src/providers that are not OAuth vendors (e-mail, credentials, passkey): the same id, so the same
 * callback path, and the same type as Auth.js's module at the same subpath. Their account id is not the vendor's
 * (the address, the user's id, the credential's id), so there is no profile to compare.
 */
describe("every other provider module keyed as Auth.js's", () => {
  const generic: readonly string[] = ['index', 'oauth', 'oidc']
  const others = nonVendorProviderModules.filter((name) => !generic.includes(name))
  it.each(others)('%s: id and type equal Auth.js 0.41.3', async (subpath) => {
    const options = { server: 'smtp://localhost:25', from: 'auth@example.test', apiKey: 'key' }
    const ours = (await import(`../../src/providers/${subpath}.ts`)) as { default: (o: object) => AuthJsProvider }
    const theirs = (await import(`@auth/core/providers/${subpath}`)) as { default: (o: object) => AuthJsProvider }
    const o = ours.default(options)
    const t = theirs.default(options)
    expect(o.options?.id ?? o.id).toBe(t.options?.id ?? t.id)
    expect(o.type).toBe(t.type)
  })
})
