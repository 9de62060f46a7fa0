/**
 * An OIDC callback that fails on our side (the database does not answer) spends the flow: the authorization code is
 * exchanged and single-use, so the same callback URL cannot succeed on a retry (issue #38, point 3). The 503 page
 * says so plainly and links to the sign-in page instead of suggesting a retry of the same URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemoryAdapter } from '../../adapters/memory.js'
import OIDC from '../../src/providers/oidc.js'
import type { Adapter } from '../../src/types/adapters.js'
import { CookieJar, csrfToken, origin, send, testConfig } from '../support/auth-harness.js'
import { startOidcProvider, type RunningOidcProvider } from '../support/oidc-provider.js'

let op: RunningOidcProvider
beforeAll(async () => {
  op = await startOidcProvider({
    clients: [{ client_id: 'app', client_secret: 'app-secret', redirect_uris: [`${origin}/auth/callback/op`] }],
  })
})
afterAll(() => op?.close())

/** The memory adapter, with its account lookup failing as a database that went away does. */
function adapterWithDatabaseDown(): Adapter {
  const adapter = MemoryAdapter()
  return {
    ...adapter,
    getUserByAccount: () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })),
  }
}

/** The memory adapter, with its account lookup never answering, as a stalled database. */
function adapterWithDatabaseStalled(): Adapter {
  return { ...MemoryAdapter(), getUserByAccount: () => new Promise(() => {}) }
}

describe('a callback that fails on our side', () => {
  it.each([
    ['refuses connections', adapterWithDatabaseDown],
    ['stalls past adapterTimeout', adapterWithDatabaseStalled],
  ])(
    'the database %s: answers 503 with a page that says to start again and links to the sign-in page',
    async (_, adapter) => {
      const config = testConfig({
        adapter: adapter(),
        adapterTimeout: 300,
        providers: [OIDC({ id: 'op', name: 'OP', issuer: op.issuer, clientId: 'app', clientSecret: 'app-secret' })],
      })
      const jar = new CookieJar()
      const start = await send(config, '/auth/signin/op', { jar, form: { csrfToken: await csrfToken(config, jar) } })
      const result = await op.signInAs(new URL(start.headers.get('location') ?? ''), 'alice')
      if (result.mode !== 'query') throw new Error('expected a query response')
      const path = `${result.callbackUrl.pathname}${result.callbackUrl.search}`
      const callback = await send(config, path, { jar, headers: { 'accept-language': 'en' } })
      expect(callback.status).toBe(503)
      const html = await callback.text()
      expect(html).toContain('This sign-in cannot be finished now; once the service is back, start it again.')
      expect(html).toContain(`href="${origin}/auth/signin"`)
      expect(html).not.toContain('    at ')
    },
  )
})
