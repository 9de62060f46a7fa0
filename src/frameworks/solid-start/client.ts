/**
 * Browser-side sign-in and sign-out for SolidStart pages (`authchart/solid-start/client`): the shared browser client
 * (../shared/browser-client.ts), with the endpoints under `/api/auth` unless `basePath` says otherwise (pass the
 * `prefix` the server uses).
 *
 * @example
 * ```tsx
 * import { signIn, signOut } from 'authchart/solid-start/client'
 * <button onClick={() => signIn('github')}>Sign in with GitHub</button>
 * <button onClick={() => signOut()}>Sign out</button>
 * ```
 * @module frameworks/solid-start/client
 */
import { createBrowserClient } from '../shared/browser-client.js'

export type {
  AuthorizationParams,
  SignInOptions,
  SignInResponse,
  SignOutOptions,
  SignOutResponse,
} from '../shared/browser-client.js'

/** Where the client looks for the auth endpoints when no `basePath` is given. */
export const defaultBasePath = '/api/auth'

const client = createBrowserClient({
  basePath: defaultBasePath,
  module: 'authchart/solid-start/client',
  onServer: 'use getSession and the auth routes',
})

/**
 * Signs in with `providerId`: OAuth and OIDC providers go to the provider, credentials and e-mail are posted with
 * the fields in `options`. Without a provider, opens the sign-in page.
 */
export const signIn = client.signIn

/** Signs out and lands on `redirectTo` (default: the current page), or reports the URL with `redirect: false`. */
export const signOut = client.signOut
