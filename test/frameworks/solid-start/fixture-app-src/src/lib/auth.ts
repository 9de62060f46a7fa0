// The app's Authchart set-up, read from the server's environment when the server starts (nothing reads it while
// the app is built). AUTH_PREFIX lets the test serve the same app with the auth routes under `/auth`.
import type { SolidAuthConfig } from 'authchart/solid-start'
import Credentials from 'authchart/providers/credentials'
import OIDC from 'authchart/providers/oidc'
import { KyselyAdapter } from 'authchart/adapters/sql'
import { MemorySessionStore } from 'authchart/logout-stores'
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'

/** The one user the credentials provider knows (a UUID: the SQL schema's ids are). */
const alice = { id: '5f0c1a2e-7d1b-4c5e-9a51-3e8d2b6f4a10', name: 'Alice Credentials', email: 'alice@fixture.test' }

function databaseAdapter() {
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 4 })
  return KyselyAdapter(new Kysely({ dialect: new PostgresDialect({ pool }) }))
}

function makeConfig(): SolidAuthConfig {
  const database = process.env.SESSION_STRATEGY === 'database'
  return {
    ...(process.env.AUTH_PREFIX ? { prefix: process.env.AUTH_PREFIX } : {}),
    providers: [
      Credentials({
        credentials: { username: { label: 'User name' }, password: { label: 'Password', type: 'password' } },
        authorize: async ({ username, password }) => (username === 'alice' && password === 'wonderland' ? alice : null),
      }),
      // Client id and secret come from AUTH_OIDC_ID / AUTH_OIDC_SECRET through the environment defaults.
      OIDC({ id: 'oidc', name: 'Test OP', issuer: process.env.AUTH_OIDC_ISSUER ?? '' }),
    ],
    ...(database ? { adapter: databaseAdapter(), session: { strategy: 'database' as const } } : {}),
    // Session management: /api/devices lists and ends the user's sessions.
    sessionManagement: { store: new MemorySessionStore() },
  }
}

export const authConfig: SolidAuthConfig = makeConfig()
