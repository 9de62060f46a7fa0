/**
 * The demo app `npm start` runs: Express, a credentials provider with two demo users, e-mail link sign-in through a
 * development mail sink (the links appear at `/dev/mail`), the memory adapter, JWT sessions, and the flow audit trail
 * printed to the console. It needs nothing installed or configured.
 */
import express from 'express'
import { MemoryAdapter } from '../../adapters/memory.js'
import { ExpressAuth, getSession } from '../../src/frameworks/express.js'
import Credentials from '../../src/providers/credentials.js'
import Email from '../../src/providers/email.js'
import type { AuthConfig } from '../../src/index.js'
import { createDevMailSink } from './dev-mail-sink.js'

const demoUsers: Record<string, { password: string; name: string; email: string }> = {
  ada: { password: 'lovelace', name: 'Ada Lovelace', email: 'ada@example.com' },
  alan: { password: 'turing', name: 'Alan Turing', email: 'alan@example.com' },
}

const escape = (s: string | null | undefined) => (s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

function page(body: string): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Authchart demo</title></head>
    <body style="font-family: system-ui; max-width: 40rem; margin: 3rem auto"><h1>Authchart demo</h1>${body}
    <p><a href="/">Home</a> · <a href="/dev/mail">Development mail</a> · <a href="/auth/session">/auth/session</a> · <a href="/auth/providers">/auth/providers</a></p></body></html>`
}

/** Builds the demo app; `log` receives the flow audit trail. */
export function createDemoApp(options: { log?: (line: string) => void } = {}) {
  const mail = createDevMailSink()
  const authConfig: AuthConfig = {
    trustHost: true,
    adapter: MemoryAdapter(),
    // The adapter is there for e-mail tokens and users; sessions stay JWT cookies, as before.
    session: { strategy: 'jwt' },
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
    ],
    onTransition: (t) => options.log?.(`[flow ${t.machine} ${t.flowId}] ${t.from} --${t.event}--> ${t.to}`),
  }

  const app = express()
  app.set('trust proxy', true)
  app.use('/auth', ExpressAuth(authConfig))

  app.get('/', async (req, res) => {
    const session = await getSession(req, authConfig)
    const body = session?.user
      ? `<p>Signed in as <strong>${escape(session.user.name ?? session.user.email)}</strong> (${escape(session.user.email)}).</p>
         <p>Session expires ${escape(session.expires)}.</p><p><a href="/auth/signout">Sign out</a></p>`
      : `<p>You are not signed in. Try <code>ada</code> / <code>lovelace</code>, or any e-mail address: its link appears
         under <a href="/dev/mail">Development mail</a>.</p><p><a href="/auth/signin">Sign in</a></p>`
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

  return { app, authConfig, mail }
}
