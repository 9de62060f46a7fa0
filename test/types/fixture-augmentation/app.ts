// An Express app as Auth.js's docs write one, on Authchart. It never imports `authchart/jwt` itself: the JWT
// fields below type-check only because an augmentation file says they exist.
import { ExpressAuth, getSession, type ExpressAuthConfig } from 'authchart/express'
import type { Provider } from 'authchart/providers'
import Credentials from 'authchart/providers/credentials'
import express from 'express'

const providers: Provider[] = [
  Credentials({
    credentials: { username: {}, password: {} },
    authorize: (credentials) =>
      credentials.username === 'ada' ? { id: '1', name: 'Ada', role: 'admin', level: 3 } : null,
  }),
]

export const config: ExpressAuthConfig = {
  providers,
  callbacks: {
    jwt({ token, user, trigger, session }) {
      if (user) {
        token.role = user.role
        token.level = user.level
      }
      if (trigger === 'update' && session?.nickname) token.nickname = session.nickname
      return token
    },
    session({ session, token }) {
      session.user.role = token.role
      session.level = token.level
      session.nickname = token.nickname
      return session
    },
  },
}

const app = express()
app.use('/auth', ExpressAuth(config))
app.get('/me', async (req, res) => {
  const session = await getSession(req, config)
  // Each line reads an augmented field with its declared type.
  const role: string | undefined = session?.user.role
  const level: number | undefined = session?.level
  const nickname: string | undefined = session?.nickname
  res.json({ role, level, nickname })
})
