// The app's Authchart set-up: configuration built on the first request from SvelteKit's private environment
// (lazy, so nothing reads the environment while SvelteKit builds), then the same object for every request.
import { env } from '$env/dynamic/private'
import { SvelteKitAuth } from 'authchart/sveltekit'
import Credentials from 'authchart/providers/credentials'
import OIDC from 'authchart/providers/oidc'
import { KyselyAdapter } from 'authchart/adapters/sql'
import { MemorySessionStore } from 'authchart/logout-stores'
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'

/** The one user the credentials provider knows. */
const alice = { id: '5f0c1a2e-7d1b-4c5e-9a51-3e8d2b6f4a10', name: 'Alice Credentials', email: 'alice@fixture.test' }

function databaseAdapter() {
  const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: 4 })
  return KyselyAdapter(new Kysely({ dialect: new PostgresDialect({ pool }) }))
}

function makeConfig() {
  const database = env.SESSION_STRATEGY === 'database'
  return {
    providers: [
      Credentials({
        credentials: { username: { label: 'User name' }, password: { label: 'Password', type: 'password' } },
        authorize: async ({ username, password }) => (username === 'alice' && password === 'wonderland' ? alice : null),
      }),
      // Client id and secret come from AUTH_OIDC_ID / AUTH_OIDC_SECRET through the environment defaults.
      OIDC({ id: 'oidc', name: 'Test OP', issuer: env.AUTH_OIDC_ISSUER ?? '' }),
    ],
    ...(database ? { adapter: databaseAdapter(), session: { strategy: 'database' } } : {}),
    // Session management: the /devices route lists and ends the user's sessions through the binding's calls.
    sessionManagement: { store: new MemorySessionStore() },
  }
}

let config
export const { handle, signIn, signOut, listSessions, revokeOtherSessions } = SvelteKitAuth(async () => (config ??= makeConfig()), { env })
