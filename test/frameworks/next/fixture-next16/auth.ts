import { KyselyAdapter, type Database } from '@auth/kysely-adapter'
import { Kysely, PostgresDialect } from 'kysely'
import NextAuth, { type NextAuthConfig } from 'next-auth'
import Credentials from 'next-auth/providers/credentials'
import pg from 'pg'

/** The user `alice` signs in as (the shared binding conformance suite's user: a UUID, as the SQL schema's ids are). */
const alice = { id: '5f0c1a2e-7d1b-4c5e-9a51-3e8d2b6f4a10', name: 'Alice Credentials', email: 'alice@fixture.test' }

// One pool for the server's life: the configuration below is made per request.
let db: Kysely<Database> | undefined
function database(connectionString: string): Kysely<Database> {
  db ??= new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString }) }) })
  return db
}

// Read at run time, not at `next build`: the OpenID Provider (AUTH_OIDC_*) and, with DATABASE_URL, database sessions
// in PostgreSQL, where the credentials provider is left out (Auth.js keeps it to JWT sessions) unless
// DATABASE_CREDENTIALS=true (Authchart keeps a credentials sign-in in a session row: the conformance suite's case).
export const { handlers, auth, signIn, signOut, unstable_update } = NextAuth(() => {
  const databaseUrl = process.env.DATABASE_URL
  const issuer = process.env.AUTH_OIDC_ISSUER
  const providers: NextAuthConfig['providers'] = []
  if (!databaseUrl || process.env.DATABASE_CREDENTIALS === 'true') {
    providers.push(
      Credentials({
        credentials: { username: { label: 'Name' }, password: { label: 'Password', type: 'password' } },
        authorize: async (credentials) => {
          if (credentials.password !== 'wonderland') return null
          if (credentials.username === 'alice') return alice
          const name = typeof credentials.username === 'string' ? credentials.username : 'Alice'
          return { id: 'alice', name, email: 'alice@example.test' }
        },
      }),
    )
  }
  if (issuer) {
    providers.push({
      id: 'oidc',
      name: 'Test OP',
      type: 'oidc',
      issuer,
      clientId: process.env.AUTH_OIDC_ID,
      clientSecret: process.env.AUTH_OIDC_SECRET,
    })
  }
  return {
    adapter: databaseUrl ? KyselyAdapter(database(databaseUrl)) : undefined,
    session: { strategy: databaseUrl ? 'database' : 'jwt' },
    providers,
    callbacks: {
      authorized: ({ auth }) => Boolean(auth),
      jwt: ({ token, trigger, session }) => {
        if (trigger === 'update' && typeof session?.user?.name === 'string') token.name = session.user.name
        return token
      },
    },
  }
})
