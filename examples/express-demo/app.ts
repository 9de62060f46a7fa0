/**
 * The demo app `npm start` runs, with no outside service: Express; credentials with two demo users; e-mail link
 * sign-in through a development mail sink (the links appear at `/dev/mail`); OpenID Connect through a development
 * OpenID provider started in this process on a loopback port; passkeys; the memory adapter and JWT sessions; the flow
 * audit trail printed to the console and shown live at `/dev/flow`, the flow inspector highlighting the state this
 * browser's flow is in, with the OpenTelemetry spans of the last flows below it when traces are on. A signed-in user can
 * add an authenticator app (TOTP) as a second factor at `/auth/factors` (the memory adapter stores factors); from then
 * on, signing in as that user stops at the second-factor challenge.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import { MemoryAdapter } from '../../adapters/memory.js'
import { machineRegistry } from '../../machines/index.js'
import { ExpressAuth, getSession } from '../../src/frameworks/express.js'
import Credentials from '../../src/providers/credentials.js'
import Email from '../../src/providers/email.js'
import OIDC from '../../src/providers/oidc.js'
import Passkey from '../../src/providers/passkey.js'
import type { AuthConfig } from '../../src/index.js'
import { describeEntry, toInspectorHtml } from '../../visualizations/index.js'
import { createDevMailSink } from './dev-mail-sink.js'
import { devClient, startDevOpenIdProvider } from './dev-openid-provider.js'
import { createFlowWatch } from '../../visualizations/flow-watch.js'
import { startDevTraces } from './dev-traces.js'

const demoUsers: Record<string, { password: string; name: string; email: string }> = {
  ada: { password: 'lovelace', name: 'Ada Lovelace', email: 'ada@example.com' },
  alan: { password: 'turing', name: 'Alan Turing', email: 'alan@example.com' },
}

const escape = (s: string | null | undefined) => (s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

function page(body: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Authchart demo</title>
    <meta name="viewport" content="width=device-width, initial-scale=1"></head>
    <body style="font-family: system-ui; max-width: 42rem; margin: 3rem auto; padding: 0 1rem"><h1>Authchart demo</h1>${body}
    <p><a href="/">Home</a> · <a href="/dev/flow">Live flow</a> · <a href="/dev/mail">Development mail</a> · <a href="/auth/session">/auth/session</a> · <a href="/auth/providers">/auth/providers</a></p></body></html>`
}

const signedOutHelp = `<p>You are not signed in. Every way in works on this machine alone:</p>
<ul>
  <li><strong>Credentials</strong>: <code>ada</code> / <code>lovelace</code> (or <code>alan</code> / <code>turing</code>).</li>
  <li><strong>E-mail</strong>: any address; the link appears under <a href="/dev/mail">Development mail</a>.</li>
  <li><strong>Dev OP</strong>: the development OpenID provider running inside the demo; type any name.</li>
  <li><strong>Passkey</strong>: type an e-mail address not used yet to create a passkey, then sign in with it
    (browsers allow passkeys on <code>localhost</code>, not on an IP address).</li>
</ul>
<p>Open <a href="/dev/flow" target="_blank">Live flow</a> in a second tab to watch each step of your sign-in.</p>
<p><a href="/auth/signin">Sign in</a></p>`

/** Options of the demo. */
export interface DemoOptions {
  /** The origins the demo answers on: the development OP accepts their callback URLs. */
  origins: string[]
  /** Receives the flow audit trail, one line per transition. */
  log?: (line: string) => void
  /**
   * Keep the flows' OpenTelemetry spans in memory and show the last traces on `/dev/flow` (when
   * `@opentelemetry/sdk-trace-base` is installed). Registers a global tracer provider: one demo per process.
   */
  traces?: boolean
}

/** Builds the demo app and starts its development OP; `close` stops the OP. */
export async function createDemoApp(options: DemoOptions) {
  const mail = createDevMailSink()
  const watch = createFlowWatch()
  const traces = options.traces ? await startDevTraces() : undefined
  const devOp = await startDevOpenIdProvider({
    redirectUris: options.origins.map((origin) => `${origin}/auth/callback/dev-op`),
  })
  const authConfig: AuthConfig = {
    trustHost: true,
    // The origins the demo answers on: the only ones a mailed sign-in link may point at (docs/security.md, the
    // origin rule); a request under any other Host gets no mail.
    allowedOrigins: options.origins,
    adapter: MemoryAdapter(),
    // The adapter is there for e-mail tokens, users, accounts and passkeys; sessions stay JWT cookies.
    session: { strategy: 'jwt' },
    experimental: { enableWebAuthn: true },
    providers: [
      Credentials({
        credentials: {
          username: { label: 'Username', placeholder: 'ada' },
          password: { label: 'Password', type: 'password', placeholder: 'lovelace' },
        },
        authorize: async ({ username, password }) => {
          const user = demoUsers[String(username)]
          return user && user.password === password
            ? { id: String(username), name: user.name, email: user.email }
            : null
        },
      }),
      Email({ sendVerificationRequest: mail.sendVerificationRequest }),
      OIDC({
        id: 'dev-op',
        name: 'Dev OP',
        issuer: devOp.issuer,
        clientId: devClient.clientId,
        clientSecret: devClient.clientSecret,
        checks: ['pkce', 'state', 'nonce'],
      }),
      Passkey(),
    ],
    onTransition: (t) => {
      watch.record(t)
      options.log?.(`[flow ${t.machine} ${t.flowId}] ${t.from} --${t.event}--> ${t.to}`)
    },
  }

  const app = express()
  app.set('trust proxy', true)
  app.use(watch.middleware)
  app.use('/auth', ExpressAuth(authConfig))

  app.get('/', async (req, res) => {
    const session = await getSession(req, authConfig)
    const body = session?.user
      ? `<p>Signed in as <strong>${escape(session.user.name ?? session.user.email)}</strong> (${escape(session.user.email)}).</p>
         <p>Session expires ${escape(session.expires)}.</p>
         <p><a href="/auth/factors">Second factor</a>: add an authenticator app (scan the QR code, type one code);
         from then on, signing in as this user asks for a code from it.</p>
         <p><a href="/auth/sessions">Your sessions</a> · <a href="/auth/signout">Sign out</a></p>`
      : signedOutHelp
    res.type('html').send(page(body))
  })

  // The development mail sink: what a real deployment would have sent.
  app.get('/dev/mail', (_req, res) => {
    const rows = mail.messages
      .map(
        (m) =>
          `<li><strong>${escape(m.to)}</strong> at ${escape(m.at.toISOString())}: <a href="${escape(m.url)}">sign-in link</a></li>`,
      )
      .join('')
    res
      .set('cache-control', 'no-store')
      .type('html')
      .send(page(`<h2>Development mail</h2>${rows ? `<ul>${rows}</ul>` : '<p>No messages yet.</p>'}`))
  })

  // The live view: the flow inspector polling this browser's steps.
  const inspector = toInspectorHtml(Object.values(machineRegistry).map(describeEntry), {
    title: 'Authchart demo: live flow',
    live: { feedUrl: '/dev/flow.json', intervalMs: 700 },
  })
  app.get('/dev/flow', (_req, res) => {
    // The recent traces, rendered as the page is asked for: reload to see the latest.
    const html = traces ? inspector.replace('</body>', `${traces.html()}</body>`) : inspector
    res.set('cache-control', 'no-store').type('html').send(html)
  })
  app.get('/dev/flow.json', (req, res) => {
    res.set('cache-control', 'no-store').json({ steps: watch.feed(req.get('cookie')) })
  })

  return {
    app,
    authConfig,
    mail,
    devOp,
    close: async () => {
      await devOp.close()
      await traces?.close()
    },
  }
}

/** A running demo. */
export interface RunningDemo {
  server: Server
  port: number
  /** Where the demo is, as a browser should open it (`localhost`: passkeys need a host name, not an IP address). */
  url: string
  /** The development OP's issuer. */
  issuer: string
  close(): Promise<void>
}

/**
 * Listens on `port` (0: any free port), then builds the demo for that port, so the development OP knows the
 * callback URLs on `localhost` and `127.0.0.1`.
 */
export async function startDemo(
  options: { port?: number; hostname?: string; log?: (line: string) => void; traces?: boolean } = {},
): Promise<RunningDemo> {
  // The app is built once the port is known; until then the server answers 503.
  const ready: { app?: express.Express } = {}
  const server = createServer((req, res) => {
    if (ready.app) ready.app(req, res)
    else res.writeHead(503, { 'retry-after': '1' }).end('The demo is starting.')
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    // Loopback unless asked otherwise: the development mail page shows sign-in links to whoever can reach it.
    server.listen(options.port ?? 3000, options.hostname ?? '127.0.0.1', () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  const demo = await createDemoApp({
    origins: [`http://localhost:${port}`, `http://127.0.0.1:${port}`],
    log: options.log,
    traces: options.traces,
  })
  ready.app = demo.app
  return {
    server,
    port,
    url: `http://localhost:${port}`,
    issuer: demo.devOp.issuer,
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await demo.close()
    },
  }
}
