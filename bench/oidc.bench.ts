/**
 * The full OIDC sign-in (pkce+state+nonce) against a real oidc-provider in this process, Authchart and @auth/core
 * side by side in interleaved rounds (bench/measure.ts). One operation is a whole sign-in from a new browser:
 * `GET /csrf`, `POST /signin/idp`, the provider's login and consent pages, and the callback. Two figures: the whole
 * round trip, and the app server's share (the provider's pages are run untimed; the callback still includes the
 * token endpoint and JWKS round trips). The provider's own work is the same for both and dilutes the first figure.
 * Also the Cookie header size each library needs on the callback request.
 */
import { Auth as AuthJs } from '@auth/core'
import { Auth } from '../src/index.js'
import OIDC from '../src/providers/oidc.js'
import { startOidcProvider, type RunningOidcProvider } from '../test/support/oidc-provider.js'
import { compare, Jar, printTable, runOptions, type Side, type Untimed } from './measure.js'

const origin = 'http://localhost:3000'
const secret = 'bench-secret-bench-secret-bench-secret-42'

type Handler = (request: Request) => Promise<Response>

/** One sign-in from a new browser; returns the Cookie header the callback needed. */
async function signIn(handler: Handler, op: RunningOidcProvider, provider: Untimed | undefined): Promise<number> {
  const jar = new Jar()
  const csrf = await handler(new Request(`${origin}/auth/csrf`))
  jar.take(csrf)
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const signin = await handler(
    new Request(`${origin}/auth/signin/idp`, {
      method: 'POST',
      headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrfToken, callbackUrl: '/done' }).toString(),
    }),
  )
  jar.take(signin)
  await signin.text()
  const location = signin.headers.get('location') as string
  const result = provider ? await provider(() => op.signInAs(location, 'alice')) : await op.signInAs(location, 'alice')
  if (result.mode !== 'query') throw new Error('expected a query response')
  const cookie = jar.header()
  const callback = await handler(
    new Request(result.callbackUrl.href.replace(/^http:\/\/[^/]+/, origin), { headers: { cookie } }),
  )
  await callback.text()
  if (callback.status !== 302 || !callback.headers.getSetCookie().some((c) => c.includes('session-token'))) {
    throw new Error(`sign-in did not complete (${callback.status} ${callback.headers.get('location')})`)
  }
  return cookie.length
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
    const shape = { secret, trustHost: true, basePath: '/auth' }
    const ours = { ...shape, providers: [OIDC(provider)] }
    const theirs = { ...shape, providers: [{ ...provider, type: 'oidc' as const }] }
    const oursHandler: Handler = (r) => Auth(r, ours)
    const theirsHandler: Handler = (r) => AuthJs(r, theirs)
    const run = runOptions(options.quick)
    const whole = (handler: Handler): Side => ({ run: () => signIn(handler, op, undefined) })
    const appShare = (handler: Handler): Side => ({ run: (_, untimed) => signIn(handler, op, untimed) })
    const results = [
      await compare(
        'OIDC sign-in, whole round trip (provider pages included)',
        whole(oursHandler),
        whole(theirsHandler),
        run,
      ),
      await compare(
        'OIDC sign-in, app server share (provider pages untimed)',
        appShare(oursHandler),
        appShare(theirsHandler),
        run,
      ),
    ]
    const ratios = printTable('OIDC sign-in against oidc-provider (pkce+state+nonce), in-process', results, run)
    console.log(
      `\nCookie header on the callback request: Authchart ${await signIn(oursHandler, op, undefined)} bytes, @auth/core ${await signIn(theirsHandler, op, undefined)} bytes`,
    )
    return ratios
  } finally {
    await op.close()
  }
}
