// SvelteKit 3 reads only the environment variables declared here ($app/env/private exposes exactly these). All are
// optional to SvelteKit, which also checks them at build time; Authchart reports what is missing when the app runs.
import { defineEnvVars } from '@sveltejs/kit/env'

/** Optional: the value, or undefined when unset. */
const optional = (value) => value

export const variables = defineEnvVars({
  AUTH_SECRET: { schema: optional },
  AUTH_URL: { schema: optional },
  AUTH_TRUST_HOST: { schema: optional },
  AUTH_OIDC_ISSUER: { schema: optional },
  AUTH_OIDC_ID: { schema: optional },
  AUTH_OIDC_SECRET: { schema: optional },
  SESSION_STRATEGY: { schema: optional },
  DATABASE_URL: { schema: optional },
})
