import type { ExpressAuthConfig } from '@auth/express'
import type { Provider } from '@auth/core/providers'
import Credentials from '@auth/core/providers/credentials'
import PostgresAdapter from '@auth/pg-adapter'
import pg from 'pg'
import { InvalidLoginError } from './errors.js'
import './types.js'

const people: Record<string, { password: string; id: string; name: string; email: string; role: string }> = {
  ada: { password: 'lovelace', id: 'u-ada', name: 'Ada Lovelace', email: 'ada@example.test', role: 'admin' },
}

/** Our company's OpenID Connect provider; client id, secret and issuer come from AUTH_OIDC_ID / _SECRET / _ISSUER. */
const corporateSso: Provider = {
  id: 'oidc',
  name: 'Corporate SSO',
  type: 'oidc',
  checks: ['pkce', 'state'],
}

const credentials = Credentials({
  credentials: { username: { label: 'User name' }, password: { label: 'Password', type: 'password' } },
  authorize(input) {
    const person = typeof input.username === 'string' ? people[input.username] : undefined
    if (!person || person.password !== input.password) throw new InvalidLoginError()
    return { id: person.id, name: person.name, email: person.email, role: person.role }
  },
})

/** What our own logger received at `error`, for the /logged-errors page (an app would ship these to its log service). */
export const loggedErrors: Array<{ name: string; type?: string; code?: string }> = []

/** APP_SESSIONS=database keeps sessions in PostgreSQL (credentials sign-in needs JWT sessions, so it is left out). */
const database = process.env.APP_SESSIONS === 'database'

export const authConfig: ExpressAuthConfig = {
  providers: database ? [corporateSso] : [credentials, corporateSso],
  adapter: database ? PostgresAdapter(new pg.Pool({ connectionString: process.env.DATABASE_URL })) : undefined,
  session: { strategy: database ? 'database' : 'jwt' },
  pages: { signIn: '/login' },
  logger: {
    error(error) {
      const { type, code } = error as Error & { type?: string; code?: string }
      loggedErrors.push({ name: error.name, type, code })
    },
  },
  callbacks: {
    jwt({ token, user, account, trigger, session }) {
      if (user) token.role = user.role ?? 'member'
      if (account) token.provider = account.provider
      if (trigger === 'update' && typeof session?.nickname === 'string') token.nickname = session.nickname
      return token
    },
    session({ session, token, user }) {
      if (token) {
        session.user.role = token.role
        session.provider = token.provider
        session.nickname = token.nickname
      } else if (user) {
        session.user.role = 'member'
      }
      return session
    },
  },
}
