/**
 * The credentials provider: the app checks what the user typed in `authorize`.
 * @module providers/credentials
 */
import type { CredentialInput, CredentialsConfig } from '../types/providers.js'

export type { CredentialInput, CredentialsConfig }

// The counters behind the `bruteForce` option's `store` are in `authchart/limits`: they use node:crypto, and this
// module is also bundled into framework clients.
export type { CredentialsFailureLimits, FailureCounter } from '../types/providers.js'

/** What `Credentials()` accepts: any part of the provider, usually `credentials` (the form's fields) and `authorize`. */
export type CredentialsUserConfig<C extends Record<string, CredentialInput> = Record<string, CredentialInput>> =
  Partial<CredentialsConfig<C>>

/**
 * A credentials provider. `authorize` returns the user, `null` to refuse, or throws `CredentialsSignin` (with a
 * `code` that is safe to show in a URL).
 */
export default function Credentials<C extends Record<string, CredentialInput> = Record<string, CredentialInput>>(
  config: CredentialsUserConfig<C> = {},
): CredentialsConfig<C> {
  return {
    id: 'credentials',
    name: 'Credentials',
    type: 'credentials',
    credentials: {} as C,
    authorize: () => null,
    options: config,
  }
}
