/**
 * The full OIDC sign-in (pkce+state+nonce) against a real oidc-provider, Authchart and @auth/core side by side.
 * Two figures: the app server's share (the time inside Auth(): POST /signin and the callback, which includes the
 * token endpoint and JWKS round trips), and the whole round trip including the provider's login pages. The
 * provider's own work is the same for both and dilutes the second figure. Also the Cookie header size each library
 * needs on the callback request.
 */
import { Auth as AuthJs } from '@auth/core'
import { Auth } from '../src/index.js'
import OIDC from '../src/providers/oidc.js'
import { startOidcProvider } from '../test/support/oidc-provider.js'
import { printComparison, type Measured } from './measure.js'

const origin = 'http://localhost:3000'
const secret = 'bench-secret-bench-secret-bench-secret-42'

type Handler = (request: Request) => Promise<Response>

class Jar {
  cookies = new Map<string, string>()
  take(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(';')[0]
      const eq = pair.indexOf('=')
      const name = pair.slice(0, eq)
      if (/max-age=0/i.test(line)) this.cookies.delete(name)
      else this.cookies.set(name, pair.slice(eq + 1))
    }
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  }
}

/** Runs the OIDC benchmark; returns the ratios. */
export async function runOidcBench(options: { quick?: boolean } = {}): Promise<Record<string, number>> {
  const op = await startOidcProvider({
    clients: [{ client_id: 'bench', client_secret: 'bench-secret', redirect_uris: [`${origin}/auth/callback/idp`] }],
  })
  try {
    const provider = {
      id: 'idp',
      name: 'IdP',
      issuer: op.issuer,
      clientId: 'bench',
      clientSecret: 'bench-secret',
      checks: ['pkce', 'state', 'nonce'] as Array<'pkce' | 'state' | 'nonce'>,
    }
    const ours = { secret, trustHost: true, providers: [OIDC(provider)] }
    const theirs = { secret, trustHost: true, basePath: '/auth', providers: [{ ...provider, type: 'oidc' as const }] }
    const handlers: Array<[string, Handler]> = [
      ['authchart', (r) => Auth(r, ours)],
      ['@auth/core', (r) => AuthJs(r, theirs)],
    ]
    const iterations = options.quick ? 20 : 150
    const results: Record<string, { rp: Measured; total: Measured; cookieHeader: number }> = {}
    for (const [name, handler] of handlers) {
      let rpNanos = 0n
      let totalNanos = 0n
      let cookieHeader = 0
      for (let i = -5; i < iterations; i++) {
        const jar = new Jar()
        const startAll = process.hrtime.bigint()
        const csrf = await handler(new Request(`${origin}/auth/csrf`))
        jar.take(csrf)
        const { csrfToken } = (await csrf.json()) as { csrfToken: string }
        let t = process.hrtime.bigint()
        const signin = await handler(
          new Request(`${origin}/auth/signin/idp`, {
            method: 'POST',
            headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ csrfToken, callbackUrl: '/done' }).toString(),
          }),
        )
        let rp = process.hrtime.bigint() - t
        jar.take(signin)
        const result = await op.signInAs(signin.headers.get('location') as string, 'alice')
        if (result.mode !== 'query') throw new Error('expected a query response')
        const cookie = jar.header()
        t = process.hrtime.bigint()
        const callback = await handler(
          new Request(result.callbackUrl.href.replace(/^http:\/\/[^/]+/, origin), { headers: { cookie } }),
        )
        rp += process.hrtime.bigint() - t
        if (callback.status !== 302 || !callback.headers.getSetCookie().some((c) => c.includes('session-token'))) {
          throw new Error(`${name}: sign-in did not complete (${callback.status} ${callback.headers.get('location')})`)
        }
        if (i >= 0) {
          rpNanos += rp
          totalNanos += process.hrtime.bigint() - startAll
          cookieHeader = cookie.length
        }
      }
      const toMeasured = (nanos: bigint, label: string): Measured => {
        const micros = Number(nanos) / 1000 / iterations
        return { name: label, microsPerOp: micros, opsPerSecond: 1e6 / micros }
      }
      results[name] = {
        rp: toMeasured(rpNanos, `${name} rp`),
        total: toMeasured(totalNanos, `${name} total`),
        cookieHeader,
      }
    }
    const a = results.authchart
    const b = results['@auth/core']
    const ratios = printComparison('OIDC sign-in against oidc-provider (pkce+state+nonce)', [
      { label: 'sign-ins/s, app server share (inside Auth())', ours: a.rp, theirs: b.rp },
      { label: 'sign-ins/s, whole round trip incl. provider pages', ours: a.total, theirs: b.total },
    ])
    console.log(
      `\nCookie header on the callback request: Authchart ${a.cookieHeader} bytes, @auth/core ${b.cookieHeader} bytes`,
    )
    return ratios
  } finally {
    await op.close()
  }
}
