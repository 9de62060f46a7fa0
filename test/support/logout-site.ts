/**
 * A site on loopback with one OIDC provider (a real `oidc-provider`) that has both kinds of federated logout, the OP
 * registered for it, and a recorder between the two that keeps each logout token the OP posts: what the back-channel
 * logout tests of every session store start from.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect } from 'vitest'
import { MemoryLogoutStore } from '../../src/flow/stores/logout.js'
import OIDC from '../../src/providers/oidc.js'
import type { Adapter } from '../../src/types/adapters.js'
import type { AuthConfig } from '../../src/types/index.js'
import { recordingLogger, secret } from './auth-harness.js'
import { startHttpSite, type HttpBrowser, type HttpSite } from './http-site.js'
import { startOidcProvider, type OpBrowser, type RunningOidcProvider } from './oidc-provider.js'

/** Where the OP posts its logout tokens: records each one, then hands it on to the site unchanged. */
export async function startLogoutRecorder(target: () => string) {
  const tokens: string[] = []
  const answers: number[] = []
  const server: Server = createServer((req, res) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => (body += chunk))
    req.on('end', () => {
      const token = new URLSearchParams(body).get('logout_token')
      if (token) tokens.push(token)
      fetch(target(), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body })
        .then(async (answer) => {
          answers.push(answer.status)
          res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text())
        })
        .catch(() => res.writeHead(502).end())
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/backchannel`,
    tokens,
    answers,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

export interface LogoutSite {
  site: HttpSite
  op: RunningOidcProvider
  recorder: Awaited<ReturnType<typeof startLogoutRecorder>>
  recorded: ReturnType<typeof recordingLogger>
  /** The site's config, for the app-side calls a test makes (`requireRecentAuth`, `listSessions`, …). */
  config: AuthConfig
  close(): Promise<void>
}

export interface LogoutSiteOptions {
  strategy: 'jwt' | 'database'
  /** The adapter of database sessions. */
  adapter?: Adapter
  /** More of the site's config (`events`, …). */
  config?: Partial<AuthConfig>
}

/** Starts the site, its OP and the recorder; the OP knows the site's redirect and logout URIs. */
export async function startLogoutSite(options: LogoutSiteOptions): Promise<LogoutSite> {
  const recorded = recordingLogger()
  let siteOrigin = ''
  const recorder = await startLogoutRecorder(() => `${siteOrigin}/auth/backchannel-logout/idp`)
  let op: RunningOidcProvider | undefined
  let config: AuthConfig = {}
  const site = await startHttpSite(async (origin): Promise<AuthConfig> => {
    siteOrigin = origin
    op = await startOidcProvider({
      clients: [
        {
          client_id: 'app',
          client_secret: 'app-secret',
          redirect_uris: [`${origin}/auth/callback/idp`],
          post_logout_redirect_uris: [`${origin}/signed-out`],
          backchannel_logout_uri: recorder.url,
          backchannel_logout_session_required: true,
        },
      ],
      features: { rpInitiatedLogout: { enabled: true }, backchannelLogout: { enabled: true } },
    })
    config = {
      url: `${origin}/auth`,
      secret,
      logger: recorded.logger,
      session: { strategy: options.strategy },
      ...(options.adapter ? { adapter: options.adapter } : {}),
      backchannelLogout: { store: new MemoryLogoutStore() },
      providers: [
        OIDC({
          id: 'idp',
          name: 'IdP',
          issuer: op.issuer,
          clientId: 'app',
          clientSecret: 'app-secret',
          checks: ['pkce', 'state', 'nonce'],
          endSessionAtProvider: true,
          backchannelLogout: true,
        }),
      ],
      ...options.config,
    }
    return config
  })
  return {
    site,
    op: op as RunningOidcProvider,
    recorder,
    recorded,
    config,
    close: async () => {
      await site.close()
      await op?.close()
      await recorder.close()
    },
  }
}

/** The authorization URL a sign-in with the OP starts. */
export async function startSignIn(browser: HttpBrowser): Promise<string> {
  const csrfToken = await browser.csrfToken()
  const start = await browser.request('/auth/signin/idp', { form: { csrfToken, callbackUrl: '/home' } })
  expect(start.status).toBe(302)
  return start.headers.get('location') as string
}

/** Signs `account` in at the OP and at the site, in one site browser and one OP browser. */
export async function signIn(browser: HttpBrowser, opBrowser: OpBrowser, account: string): Promise<void> {
  const result = await opBrowser.signInAs(await startSignIn(browser), account)
  if (result.mode !== 'query') throw new Error('expected a query response')
  const back = await browser.request(result.callbackUrl.href)
  expect(back.status).toBe(302)
  expect((await browser.session())?.user?.email).toBe(
    account === 'alice' ? 'alice@example.test' : `${account}@example.test`,
  )
}

/** Posts a logout token to the site, as the OP would. */
export async function postLogoutToken(site: HttpSite, token: string): Promise<Response> {
  return fetch(`${site.origin}/auth/backchannel-logout/idp`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ logout_token: token }),
  })
}
