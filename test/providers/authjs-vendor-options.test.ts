/**
 * Vendor options a migrating app relies on without writing them down, compared with `@auth/core/providers/<id>`
 * 0.41.3 called with the same options: production issuers, the scopes asked for (Auth.js asks for `openid profile
 * email` where its provider names none), the checks sent, and the endpoints of vendors whose endpoints Auth.js
 * fixes. Where Authchart keeps a difference on purpose it is in docs/providers.md, not here.
 */
import { describe, expect, it } from 'vitest'
import { readEndpoint } from '../../src/providers-internal/oauth-endpoint.js'
import { loadVendor } from './vendor-modules.js'
import { resolveVendor } from './vendor-sign-in.js'

interface AuthJsProvider {
  issuer?: string
  wellKnown?: string
  checks?: string[]
  authorization?: string | { url?: string; params?: Record<string, unknown> }
  token?: string | { url?: string }
  userinfo?: string | { url?: string }
}

async function theirs(subpath: string, options: Record<string, unknown>): Promise<AuthJsProvider> {
  const module = (await import(`@auth/core/providers/${subpath}`)) as {
    default: (options: Record<string, unknown>) => AuthJsProvider
  }
  return module.default({ clientId: 'id', clientSecret: 'secret', ...options })
}

async function ours(subpath: string, options: Record<string, unknown>) {
  return resolveVendor((await loadVendor(subpath))({ clientId: 'id', clientSecret: 'secret', ...options }))
}

/** A URL endpoint as a URL without its query, and its query's parameters. */
function endpoint(value: AuthJsProvider['authorization']): { url?: string; params: Record<string, string> } {
  const raw = typeof value === 'string' ? value : value?.url
  const params: Record<string, string> = {}
  for (const [key, v] of Object.entries(typeof value === 'object' ? (value.params ?? {}) : {})) params[key] = String(v)
  if (!raw) return { params }
  const url = new URL(raw)
  for (const [key, v] of url.searchParams) params[key] = v
  url.search = ''
  return { url: url.href, params }
}

/** The scope Auth.js sends: its provider's, else the `openid profile email` its normaliser adds. */
function authJsScope(provider: AuthJsProvider): string {
  return endpoint(provider.authorization).params.scope ?? 'openid profile email'
}

describe('vendor options as Auth.js sets them', () => {
  it.each([
    ['vipps', {}],
    ['bankid-no', {}],
  ])('%s: the production issuer by default', async (subpath, options) => {
    const expected = (await theirs(subpath, options)).issuer
    expect(expected).not.toMatch(/test|current/)
    expect((await ours(subpath, options)).issuer).toBe(expected)
  })

  it.each([
    ['huggingface', {}],
    ['line', {}],
    ['beyondidentity', { issuer: 'https://auth-us.beyondidentity.test/v1/tenants/t/realms/r/applications/a' }],
    ['ory-hydra', { issuer: 'https://project.projects.oryapis.test' }],
    ['fusionauth', { issuer: 'https://login.piedpiper.test' }],
    ['tiktok', {}],
    ['bankid-no', {}],
  ])('%s: asks for the scope Auth.js asks for', async (subpath, options) => {
    const resolved = await ours(subpath, options)
    const scope = readEndpoint(resolved.authorization).params.scope ?? 'openid profile email'
    expect(scope.split(' ').sort()).toEqual(
      authJsScope(await theirs(subpath, options))
        .split(' ')
        .sort(),
    )
  })

  it('TikTok: the userinfo fields Auth.js asks for (user.info.basic grants no username)', async () => {
    const userinfo = readEndpoint((await ours('tiktok', {})).userinfo).params
    expect(userinfo.fields).toBe(endpoint((await theirs('tiktok', {})).userinfo).params.fields)
  })

  it('BankID: the checks Auth.js sends (state and nonce besides PKCE), and its login hint', async () => {
    const resolved = await ours('bankid-no', {})
    const expected = await theirs('bankid-no', {})
    expect([...(resolved.checks ?? [])].sort()).toEqual([...(expected.checks ?? [])].sort())
    expect(readEndpoint(resolved.authorization).params.login_hint).toBe(
      endpoint(expected.authorization).params.login_hint,
    )
  })

  it('FusionAuth: an OIDC provider on the instance, as in Auth.js', async () => {
    const options = { issuer: 'https://login.piedpiper.test', tenantId: 'tenant-1' }
    const resolved = await ours('fusionauth', options)
    const expected = await theirs('fusionauth', options)
    expect(resolved.type).toBe('oidc')
    expect(resolved.issuer).toBe(expected.issuer)
    expect(resolved.wellKnown).toBe(expected.wellKnown)
  })

  it("NetSuite: the account is Auth.js's `accountID` option, and no prompt is sent unless asked for", async () => {
    const options = { accountID: 'TSTDRV1234567', userinfo: 'https://tstdrv1234567.restlets.api.netsuite.com/x' }
    const resolved = await ours('netsuite', options)
    const expected = await theirs('netsuite', options)
    const authorization = readEndpoint(resolved.authorization)
    expect(authorization.url).toBe(endpoint(expected.authorization).url?.toLowerCase())
    expect(readEndpoint(resolved.token).url).toBe(endpoint(expected.token).url?.toLowerCase())
    expect(authorization.params.prompt).toBeUndefined()
    expect(readEndpoint((await ours('netsuite', { ...options, prompt: 'login' })).authorization).params.prompt).toBe(
      'login',
    )
  })

  it("Frontegg: Auth.js's fixed endpoints under the Frontegg domain, discovery under /oauth", async () => {
    const options = { issuer: 'https://app-xyz.frontegg.test' }
    const resolved = await ours('frontegg', options)
    const expected = await theirs('frontegg', options)
    expect(resolved.wellKnown).toBe(expected.wellKnown)
    expect(readEndpoint(resolved.authorization).url).toBe(endpoint(expected.authorization).url)
    expect(readEndpoint(resolved.token).url).toBe(endpoint(expected.token).url)
    expect(readEndpoint(resolved.userinfo).url).toBe(endpoint(expected.userinfo).url)
  })
})
