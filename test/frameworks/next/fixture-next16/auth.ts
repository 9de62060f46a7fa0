import { KyselyAdapter, type Database } from '@auth/kysely-adapter'
import { Kysely, PostgresDialect } from 'kysely'
import NextAuth, { type NextAuthConfig } from 'next-auth'
import Credentials from 'next-auth/providers/credentials'
import pg from 'pg'

// One pool for the server's life: the configuration below is made per request.
let db: Kysely<Database> | undefined
function database(connectionString: string): Kysely<Database> {
  db ??= new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString }) }) })
  return db
}

// Read at run time, not at `next build`: the OpenID Provider (AUTH_OIDC_*) and, with DATABASE_URL, database sessions
// in PostgreSQL, where the credentials provider is left out (Auth.js keeps it to JWT sessions).
export const { handlers, auth, signIn, signOut, unstable_update } = NextAuth(() => {
  const databaseUrl = process.env.DATABASE_URL
  const issuer = process.env.AUTH_OIDC_ISSUER
  const providers: NextAuthConfig['providers'] = []
  if (!databaseUrl) {
    providers.push(
      Credentials({
        credentials: { username: { label: 'Name' }, password: { label: 'Password', type: 'password' } },
        authorize: async (credentials) => {
          if (credentials.password !== 'wonderland') return null
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
