/**
 * One policy for the app's `onTransition` hook on every flow, because every flow runs through the one runtime: the
 * hook sees each transition, and a hook that throws changes nothing about the outcome; its error is logged once per
 * request. The same test runs on each flow: credentials sign-in, OIDC sign-in (both requests), the session read, the
 * session update and sign-out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import OIDC from '../../src/providers/oidc.js'
import type { TransitionRecord } from '../../src/types/index.js'
import { CookieJar, csrfToken, origin, send, signIn, testConfig, testCredentials } from '../support/auth-harness.js'
import { startOidcProvider, type RunningOidcProvider } from '../support/oidc-provider.js'

let op: RunningOidcProvider
beforeAll(async () => {
  op = await startOidcProvider({
    clients: [{ client_id: 'app', client_secret: 'app-secret', redirect_uris: [`${origin}/auth/callback/idp`] }],
  })
})
afterAll(() => op?.close())

type Hook = (record: TransitionRecord) => void
type Config = ReturnType<typeof testConfig>

function configWith(hook: Hook): Config {
  return testConfig({
    onTransition: hook,
    providers: [
      testCredentials(),
      OIDC({ id: 'idp', name: 'IdP', issuer: op.issuer, clientId: 'app', clientSecret: 'app-secret' }),
    ],
  })
}

/** Each flow as a scenario: it runs against `config` and `jar`, and answers with what the user got. */
const flows: Record<string, (config: Config, jar: CookieJar) => Promise<unknown>> = {
  'credentials sign-in': async (config, jar) => (await signIn(config, jar)).headers.get('location'),
  'OIDC sign-in': async (config, jar) => {
    const start = await send(config, '/auth/signin/idp', {
      jar,
      form: { csrfToken: await csrfToken(config, jar), callbackUrl: '/in' },
    })
    const result = await op.signInAs(new URL(start.headers.get('location') as string), 'alice')
    if (result.mode !== 'query') throw new Error('expected a query response')
    return (await send(config, `${result.callbackUrl.pathname}${result.callbackUrl.search}`, { jar })).headers.get(
      'location',
    )
  },
  'session read': async (config, jar) => {
    await signIn(config, jar)
    return ((await (await send(config, '/auth/session', { jar })).json()) as { user?: unknown }).user
  },
  'session update': async (config, jar) => {
    await signIn(config, jar)
    return (
      await send(config, '/auth/session', { jar, json: { csrfToken: await csrfToken(config, jar), data: { x: 1 } } })
    ).status
  },
  'sign-out': async (config, jar) => {
    await signIn(config, jar)
    return (
      await send(config, '/auth/signout', { jar, form: { csrfToken: await csrfToken(config, jar) } })
    ).headers.get('location')
  },
}

describe('onTransition on every flow', () => {
  for (const [name, run] of Object.entries(flows)) {
    it(`${name}: the hook sees every transition, and a throwing hook changes nothing but a logged error`, async () => {
      const seen: TransitionRecord[] = []
      const observed = configWith((record) => {
        seen.push(record)
      })
      const expected = await run(observed, new CookieJar())
      expect(seen.length).toBeGreaterThan(1)
      expect(new Set(seen.map((r) => r.flowId)).size).toBeGreaterThan(0)
      for (const record of seen) expect(record.flowId).not.toBe('')

      const throwing = configWith(() => {
        throw new Error('audit sink is down')
      })
      const got = await run(throwing, new CookieJar())
      expect(got).toEqual(expected)
      const hookErrors = throwing.recorded.errors.filter((e) => e.message.includes('onTransition'))
      expect(hookErrors.length).toBeGreaterThan(0)
      // Once per request at most: the scenario makes a handful of requests, the hook throws on every transition.
      expect(hookErrors.length).toBeLessThan(seen.length)
    })
  }
})
