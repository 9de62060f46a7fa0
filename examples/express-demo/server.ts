/**
 * The demo app `npm start` runs: Express, a credentials provider with two demo users, JWT sessions, and the flow
 * audit trail printed to the console. It needs nothing installed or configured; set AUTH_SECRET and PORT to taste.
 */
import { randomBytes } from 'node:crypto'
import express from 'express'
import { ExpressAuth, getSession } from '../../src/frameworks/express.js'
import Credentials from '../../src/providers/credentials.js'
import type { AuthConfig } from '../../src/index.js'

const port = Number(process.env.PORT ?? 3000)
const demoUsers: Record<string, { password: string; name: string; email: string }> = {
  ada: { password: 'lovelace', name: 'Ada Lovelace', email: 'ada@example.com' },
  alan: { password: 'turing', name: 'Alan Turing', email: 'alan@example.com' },
}

if (!process.env.AUTH_SECRET) {
  // An embedded default so the demo starts anywhere; sessions do not survive a restart with it.
  process.env.AUTH_SECRET = randomBytes(32).toString('base64url')
  console.log('AUTH_SECRET is not set: using a random secret for this run (sessions end when the demo stops).')
}

export const authConfig: AuthConfig = {
  trustHost: true,
  providers: [
    Credentials({
      credentials: { username: { label: 'Username', placeholder: 'ada' }, password: { label: 'Password', type: 'password', placeholder: 'lovelace' } },
      authorize: async ({ username, password }) => {
        const user = demoUsers[String(username)]
        return user && user.password === password ? { id: String(username), name: user.name, email: user.email } : null
      },
    }),
  ],
  onTransition: (t) => console.log(`[flow ${t.machine} ${t.flowId}] ${t.from} --${t.event}--> ${t.to}`),
}

const app = express()
app.set('trust proxy', true)
app.use('/auth', ExpressAuth(authConfig))

const escape = (s: unknown) => String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

app.get('/', async (req, res) => {
  const session = await getSession(req, authConfig)
  const body = session?.user
    ? `<p>Signed in as <strong>${escape(session.user.name)}</strong> (${escape(session.user.email)}).</p>
       <p>Session expires ${escape(session.expires)}.</p><p><a href="/auth/signout">Sign out</a></p>`
    : `<p>You are not signed in. Try <code>ada</code> / <code>lovelace</code>.</p><p><a href="/auth/signin">Sign in</a></p>`
  res.type('html').send(`<!DOCTYPE html><html><head><meta charset="utf-8"><title>Authchart demo</title></head>
    <body style="font-family: system-ui; max-width: 40rem; margin: 3rem auto"><h1>Authchart demo</h1>${body}
    <p><a href="/auth/session">/auth/session</a> · <a href="/auth/providers">/auth/providers</a></p></body></html>`)
})

app.listen(port, () => console.log(`Authchart demo on http://localhost:${port}`))
