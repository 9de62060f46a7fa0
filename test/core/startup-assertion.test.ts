/**
 * The configuration is checked when the handler is made (`ExpressAuth`, `toWebHandler`, `SolidAuth`), or on the
 * first request `Auth()` sees for a config object: a missing secret or a provider that cannot work is logged then,
 * once, with what to do, and not again on every request after it. Counted across several requests.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ExpressAuth } from '../../src/frameworks/express.js'
import { SolidAuth } from '../../src/frameworks/solid-start/index.js'
import { toWebHandler } from '../../src/frameworks/web-handler.js'
import { hintOf } from '../../src/logger.js'
import OIDC from '../../src/providers/oidc.js'
import type { AuthConfig } from '../../src/types/index.js'
import { startApp, http } from '../frameworks/express-http.js'
import { origin, recordingLogger, send, testConfig, testCredentials } from '../support/auth-harness.js'

const typeOf = (error: Error) => (error as { type?: string }).type

/** A config without a secret, whatever the environment says. */
function withoutSecret(logger: AuthConfig['logger']): AuthConfig {
  return { providers: [testCredentials()], trustHost: true, secret: [], logger }
}

beforeEach(() => {
  // The bindings fill a missing secret from the environment: make sure it has none.
  for (const name of ['AUTH_SECRET', 'AUTH_SECRET_1', 'AUTH_SECRET_2', 'AUTH_SECRET_3']) vi.stubEnv(name, '')
})

afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllEnvs()
})

describe('configuration asserted at start-up', () => {
  it('ExpressAuth(config): a missing secret is logged once, when the middleware is made, with what to do', async () => {
    const recorded = recordingLogger()
    const config = withoutSecret(recorded.logger)
    const middleware = ExpressAuth(config)
    // Before any request reached it.
    expect(recorded.errors.map(typeOf)).toEqual(['MissingSecret'])
    expect(recorded.errors[0]?.message).toBe('Please define a `secret`')
    expect(hintOf(recorded.errors[0])).toMatch(/^Set AUTH_SECRET/)
    const app = await startApp((express) => express.use(middleware))
    try {
      for (const path of ['/auth/session', '/auth/providers', '/auth/signin', '/auth/csrf']) {
        const answer = await http(app.port, path)
        expect(answer.status, path).toBe(500)
      }
    } finally {
      await app.close()
    }
    expect(recorded.errors.map(typeOf)).toEqual(['MissingSecret'])
  })

  it('toWebHandler(config): a provider that cannot work is named at start-up; the other actions go on', async () => {
    const recorded = recordingLogger()
    const config = testConfig({
      logger: recorded.logger,
      providers: [testCredentials(), OIDC({ id: 'corp', name: 'Corp', issuer: 'https://idp.example' })],
    })
    const handler = toWebHandler(config)
    expect(recorded.errors.map(typeOf)).toEqual(['InvalidProvider'])
    expect(recorded.errors[0]?.message).toContain('provider "corp": clientId is missing. Set AUTH_CORP_ID')
    for (let i = 0; i < 3; i++) {
      const response = await handler(new Request(`${origin}/auth/providers`))
      expect(response.status).toBe(200)
    }
    expect(recorded.errors).toHaveLength(1)
  })

  it('SolidAuth(config): checked when the route module is loaded', () => {
    const recorded = recordingLogger()
    SolidAuth({ ...withoutSecret(recorded.logger) })
    expect(recorded.errors.map(typeOf)).toEqual(['MissingSecret'])
  })

  it('Auth(): the first request for a config object checks it; later requests do not log the same error again', async () => {
    const recorded = recordingLogger()
    const config = withoutSecret(recorded.logger)
    for (let i = 0; i < 4; i++) expect((await send(config, '/auth/session')).status).toBe(500)
    expect(recorded.errors.map(typeOf)).toEqual(['MissingSecret'])
  })

  it('Auth(): an untrusted host is logged once, with what to do', async () => {
    const recorded = recordingLogger()
    const config: AuthConfig = { providers: [testCredentials()], secret: 'x'.repeat(32), logger: recorded.logger }
    for (let i = 0; i < 3; i++) expect((await send(config, '/auth/providers')).status).toBe(500)
    expect(recorded.errors.map(typeOf)).toEqual(['UntrustedHost'])
    expect(recorded.errors[0]?.message).toBe(`Host must be trusted. URL was: ${origin}/auth/providers`)
    expect(hintOf(recorded.errors[0])).toMatch(/AUTH_URL.*AUTH_TRUST_HOST=true/)
  })

  it('with the built-in logger: one MissingSecret line on the console across several requests', async () => {
    const lines: string[] = []
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(' ')))
    const handler = toWebHandler({ providers: [testCredentials()], trustHost: true, secret: [] })
    for (let i = 0; i < 3; i++) await handler(new Request(`${origin}/auth/session`))
    expect(lines.filter((line) => line.startsWith('[authchart][error] MissingSecret:'))).toHaveLength(1)
  })

  it('logs nothing for a sound configuration', async () => {
    const recorded = recordingLogger()
    const config = testConfig({ logger: recorded.logger })
    toWebHandler(config)
    expect((await send(config, '/auth/providers')).status).toBe(200)
    expect(recorded.errors).toEqual([])
  })

  it('is done once per config object: a second handler for the same object logs nothing more', () => {
    const recorded = recordingLogger()
    const config = withoutSecret(recorded.logger)
    toWebHandler(config)
    ExpressAuth(config)
    expect(recorded.errors).toHaveLength(1)
  })
})
