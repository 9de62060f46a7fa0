/**
 * The `tokenRefresh` provider option is checked at start-up, like every other option: nonsense is a configuration
 * error naming the option (the client gets the generic answer, the log the reason), and database sessions need the
 * adapter's two account-token methods.
 */
import { describe, expect, it } from 'vitest'
import { MemoryAdapter } from '../../adapters/memory.js'
import { getAccessToken } from '../../src/index.js'
import Credentials from '../../src/providers/credentials.js'
import OIDC from '../../src/providers/oidc.js'
import type { AuthConfig } from '../../src/types/index.js'
import { origin, send, testConfig } from '../support/auth-harness.js'

function idp(tokenRefresh: unknown) {
  return OIDC({
    id: 'idp',
    name: 'IdP',
    issuer: 'https://idp.example.test',
    clientId: 'app',
    clientSecret: 'secret',
    // Deliberately ill-typed values, as a JavaScript config could hold them.
    tokenRefresh: tokenRefresh as boolean,
  })
}

async function configurationError(config: AuthConfig & { recorded: { errors: Error[] } }): Promise<string> {
  const response = await send(config, '/auth/session')
  expect(response.status).toBe(500)
  expect(await response.json()).toMatchObject({ message: expect.any(String) as string })
  return config.recorded.errors.map((e) => e.message).join('\n')
}

describe('the tokenRefresh option', () => {
  it.each([
    [{ margin: -5 }, 'tokenRefresh.margin must be a non-negative number of seconds'],
    [{ margin: '60' }, 'tokenRefresh.margin must be a non-negative number of seconds'],
    [{ onFailure: 'signOut' }, 'tokenRefresh.onFailure must be "markSession" or "endSession"'],
    ['yes', 'tokenRefresh must be true or an object'],
  ])('refuses %j at start-up', async (option, message) => {
    const config = testConfig({ providers: [idp(option)] })
    expect(await configurationError(config)).toContain(message)
  })

  it('is for OAuth and OIDC providers only', async () => {
    const credentials = { ...Credentials({ authorize: () => null }), tokenRefresh: true }
    const config = testConfig({ providers: [credentials] })
    expect(await configurationError(config)).toContain('tokenRefresh is for OAuth and OIDC providers only')
  })

  it('with database sessions, needs an adapter with listAccountsByUserId and updateAccount', async () => {
    const { listAccountsByUserId: _list, updateAccount: _update, ...authJsShaped } = MemoryAdapter()
    const config = testConfig({ providers: [idp(true)], adapter: authJsShaped })
    expect(await configurationError(config)).toContain(
      'Required adapter methods were missing: listAccountsByUserId, updateAccount',
    )
    // Without tokenRefresh the same adapter is fine.
    const plain = testConfig({ providers: [idp(false)], adapter: authJsShaped })
    expect((await send(plain, '/auth/session')).status).toBe(200)
  })

  it('getAccessToken answers Configuration for a broken config and for a provider it does not know', async () => {
    const broken = testConfig({ providers: [idp({ margin: -1 })] })
    expect(await getAccessToken(new Request(`${origin}/api`), broken, 'idp')).toEqual({
      error: 'Configuration',
      setCookie: [],
    })
    const config = testConfig({ providers: [idp(true)] })
    expect(await getAccessToken(new Request(`${origin}/api`), config, 'nobody')).toEqual({
      error: 'Configuration',
      setCookie: [],
    })
    expect(config.recorded.errors.map((e) => e.message)).toContainEqual(
      expect.stringContaining('"nobody" is no OAuth or OIDC provider'),
    )
  })
})
