/**
 * A site serving Authchart over real HTTP (Express on a loopback port chosen by the OS), and a browser-like client
 * with a cookie jar that does not follow redirects (tests read each Location).
 */
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import { ExpressAuth } from '../../src/frameworks/express.js'
import type { AuthConfig } from '../../src/types/index.js'
import { CookieJar } from './auth-harness.js'

export interface HttpSite {
  origin: string
  close(): Promise<void>
}

/**
 * Serves `config` under `/auth`; `configFor` gets the origin first, since links are built from the configured URL (it
 * may start what the config needs, such as an OP that must know the site's redirect URIs).
 */
export async function startHttpSite(
  configFor: (origin: string) => AuthConfig | Promise<AuthConfig>,
): Promise<HttpSite> {
  const app = express()
  // The handler needs the origin, which is known only once the server listens.
  const mounted: { handler?: express.RequestHandler } = {}
  app.use((req, res, next) => (mounted.handler ? mounted.handler(req, res, next) : next()))
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s))
  })
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  mounted.handler = ExpressAuth(await configFor(origin))
  return {
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** One browser: its own cookies. */
export class HttpBrowser {
  readonly jar = new CookieJar()
  constructor(private readonly origin: string) {}

  async request(
    pathOrUrl: string,
    init: { form?: Record<string, string>; headers?: Record<string, string> } = {},
  ): Promise<Response> {
    const headers = new Headers(init.headers)
    if (this.jar.cookies.size > 0) headers.set('cookie', this.jar.header())
    let body: string | undefined
    if (init.form) {
      body = new URLSearchParams(init.form).toString()
      headers.set('content-type', 'application/x-www-form-urlencoded')
    }
    const url = pathOrUrl.startsWith('http') ? pathOrUrl : `${this.origin}${pathOrUrl}`
    const response = await fetch(url, {
      method: body === undefined ? 'GET' : 'POST',
      headers,
      body,
      redirect: 'manual',
    })
    this.jar.take(response)
    return response
  }

  async csrfToken(): Promise<string> {
    const response = await this.request('/auth/csrf')
    return ((await response.json()) as { csrfToken: string }).csrfToken
  }

  async session(): Promise<{ user?: { email?: string } } | null> {
    const response = await this.request('/auth/session')
    return (await response.json()) as { user?: { email?: string } } | null
  }
}

/** The hidden fields of the confirmation page's form. */
export function confirmationFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {}
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)" \/>/g)) {
    fields[match[1]] = match[2]
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&#96;/g, '`')
      .replace(/&amp;/g, '&')
  }
  return fields
}
