// The app's Authchart configuration, made on the first request from the environment, then the same object for
// every request (environment defaults are applied once per object; one database pool). Server-only: the plugin
// loads it with import() inside QwikAuth$, so pages that use useSession never evaluate pg in the browser.
import Credentials from 'authchart/providers/credentials'
import OIDC from 'authchart/providers/oidc'
import { KyselyAdapter } from 'authchart/adapters/sql'
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'

/** The one user the credentials provider knows. */
const alice = { id: '5f0c1a2e-7d1b-4c5e-9a51-3e8d2b6f4a10', name: 'Alice Credentials', email: 'alice@fixture.test' }

let config

export function configFor(env) {
  if (config) return config
  const database = env.get('SESSION_STRATEGY') === 'database'
  const adapter = database ? KyselyAdapter(new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: env.get('DATABASE_URL'), max: 4 }) }) })) : undefined
  config = {
    providers: [
      Credentials({
        credentials: { username: { label: 'User name' }, password: { label: 'Password', type: 'password' } },
        authorize: async ({ username, password }) => (username === 'alice' && password === 'wonderland' ? alice : null),
      }),
      // Client id and secret come from AUTH_OIDC_ID / AUTH_OIDC_SECRET through the environment defaults.
      OIDC({ id: 'oidc', name: 'Test OP', issuer: env.get('AUTH_OIDC_ISSUER') ?? '' }),
    ],
    ...(adapter ? { adapter, session: { strategy: 'database' } } : {}),
  }
  return config
}

