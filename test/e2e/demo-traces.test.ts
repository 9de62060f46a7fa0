/**
 * The demo's trace view: started with traces on, a credentials sign-in's spans (its request, each state, each command)
 * show up on `/dev/flow` as one trace; started without, the page has no trace section.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { startDemo, type RunningDemo } from '../../examples/express-demo/app.js'
import { CookieJar } from '../support/auth-harness.js'

let demo: RunningDemo | undefined
afterEach(async () => {
  await demo?.close()
  demo = undefined
})

process.env.AUTH_SECRET ??= 'demo-traces-test-secret-with-32-characters!'

/** A credentials sign-in as the demo's form sends it, with the demo's cookies kept in `jar`. */
async function signInAsAda(base: string, jar: CookieJar): Promise<Response> {
  const csrf = await fetch(`${base}/auth/csrf`)
  jar.take(csrf)
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const response = await fetch(`${base}/auth/callback/credentials`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.header() },
    body: new URLSearchParams({ username: 'ada', password: 'lovelace', csrfToken }).toString(),
  })
  jar.take(response)
  return response
}

describe('the demo with traces on', () => {
  it('shows the spans of a sign-in on /dev/flow', async () => {
    demo = await startDemo({ port: 0, traces: true })
    const base = `http://127.0.0.1:${demo.port}`
    expect((await signInAsAda(base, new CookieJar())).status).toBe(302)
    const html = await (await fetch(`${base}/dev/flow`)).text()
    expect(html).toContain('<section id="dev-traces"')
    const trace = /<div class="dev-trace" data-machine="credentials"[\s\S]*?<\/div>/.exec(html)?.[0] ?? ''
    for (const span of ['authchart.flow credentials', 'credentials.authorizing', 'authorize', 'credentials.signedIn'])
      expect(trace).toContain(`<code>${span}</code>`)
    expect(trace).not.toContain('lovelace')
  })

  it('has no trace section when traces are off', async () => {
    demo = await startDemo({ port: 0 })
    const html = await (await fetch(`http://127.0.0.1:${demo.port}/dev/flow`)).text()
    expect(html).not.toContain('dev-traces')
  })
})
