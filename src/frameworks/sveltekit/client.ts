/**
 * Browser-side sign-in and sign-out for SvelteKit pages (`authchart/sveltekit/client`): the shared browser client
 * (../shared/browser-client.ts) with the endpoints under `/auth` unless `basePath` says otherwise (prefix SvelteKit's
 * `base` path when the app has one).
 *
 * @example
 * ```svelte
 * <script>
 *   import { signIn, signOut } from 'authchart/sveltekit/client'
 * </script>
 * <button onclick={() => signIn('github')}>Sign in with GitHub</button>
 * <button onclick={() => signOut()}>Sign out</button>
 * ```
 * @module frameworks/sveltekit/client
 */
import { createBrowserClient } from '../shared/browser-client.js'

export type {
  AuthorizationParams,
  SignInOptions,
  SignInResponse,
  SignOutOptions,
  SignOutResponse,
} from '../shared/browser-client.js'

const client = createBrowserClient({
  basePath: '/auth',
  module: 'authchart/sveltekit/client',
  onServer: 'use the signIn / signOut form actions',
})

/**
 * Signs in with `providerId`: OAuth and OIDC providers go to the provider, credentials and e-mail are posted with
 * the fields in `options`. Without a provider, opens the sign-in page.
 */
export const signIn = client.signIn

/** Signs out and lands on `redirectTo` (default: the current page), or reports the URL with `redirect: false`. */
export const signOut = client.signOut
