/**
 * The spec's loose types are exported where an app imports them from: `RedirectableProviderType`, `SemverString`
 * and `WebAuthnOptionsResponseBody` from `authchart` and `authchart/types` (and the first from
 * `authchart/providers`), each the same set of values as Auth.js's. Type-level: `npm run typecheck` fails on a
 * missing or different export; the run-time lines check values typed with them.
 */
import type { SemverString as AuthJsSemverString, WebAuthnOptionsResponseBody as AuthJsBody } from '@auth/core/types'
import { describe, expect, expectTypeOf, it } from 'vitest'
import type { RedirectableProviderType, SemverString, WebAuthnOptionsResponseBody } from '../../src/index.js'
import type { RedirectableProviderType as FromProviders } from '../../src/providers/index.js'
import type { SemverString as FromTypes } from '../../src/types/index.js'

describe('types of the spec exported by name', () => {
  it('RedirectableProviderType is email or credentials', () => {
    expectTypeOf<RedirectableProviderType>().toEqualTypeOf<'email' | 'credentials'>()
    expectTypeOf<FromProviders>().toEqualTypeOf<RedirectableProviderType>()
    const all: RedirectableProviderType[] = ['email', 'credentials']
    expect(all).toHaveLength(2)
  })

  it("SemverString is Auth.js's v<major>[.<minor>[.<patch>]]", () => {
    expectTypeOf<SemverString>().toEqualTypeOf<AuthJsSemverString>()
    expectTypeOf<FromTypes>().toEqualTypeOf<SemverString>()
    const version: SemverString = 'v9.0.1'
    expect(version).toMatch(/^v\d+(\.\d+){0,2}$/)
  })

  it('WebAuthnOptionsResponseBody names the same two ceremonies as Auth.js', () => {
    expectTypeOf<WebAuthnOptionsResponseBody['action']>().toEqualTypeOf<AuthJsBody['action']>()
    const body: WebAuthnOptionsResponseBody = { action: 'authenticate', options: { challenge: 'Y2hhbGxlbmdl' } }
    expect(body.action).toBe('authenticate')
  })
})
