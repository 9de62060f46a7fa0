/**
 * Browser-side sign-in and sign-out for SolidStart pages (`authchart/solid-start/client`): the same calls as the
 * SvelteKit client (each fetches a CSRF token from `Auth()` and posts it with the form), with the endpoints under
 * `/api/auth` unless `basePath` says otherwise (pass the `prefix` the server uses).
 *
 * @example
 * ```tsx
 * import { signIn, signOut } from 'authchart/solid-start/client'
 * <button onClick={() => signIn('github')}>Sign in with GitHub</button>
 * <button onClick={() => signOut()}>Sign out</button>
 * ```
 * @module frameworks/solid-start/client
 */
import {
  signIn as postSignIn,
  signOut as postSignOut,
  type AuthorizationParams,
  type SignInOptions,
  type SignInResponse,
  type SignOutOptions,
} from '../sveltekit/client.js'

export type { AuthorizationParams, SignInOptions, SignInResponse, SignOutOptions } from '../sveltekit/client.js'

/** Where the client looks for the auth endpoints when no `basePath` is given. */
export const defaultBasePath = '/api/auth'

/**
 * Signs in with `providerId`: OAuth and OIDC providers go to the provider, credentials and e-mail are posted with
 * the fields in `options`. Without a provider, opens the sign-in page.
 */
export async function signIn(
  providerId?: string,
  options?: SignInOptions<true>,
  authorizationParams?: AuthorizationParams,
): Promise<void>
export async function signIn(
  providerId: string,
  options: SignInOptions<false>,
  authorizationParams?: AuthorizationParams,
): Promise<SignInResponse>
export async function signIn(
  providerId?: string,
  options: SignInOptions<boolean> = {},
  authorizationParams?: AuthorizationParams,
): Promise<SignInResponse | void> {
  const withBase = { ...options, basePath: options.basePath ?? defaultBasePath }
  if (withBase.redirect === false)
    return postSignIn(providerId ?? '', { ...withBase, redirect: false }, authorizationParams)
  return postSignIn(providerId, { ...withBase, redirect: true }, authorizationParams)
}

/** Signs out and lands on `redirectTo` (default: the current page), or reports the URL with `redirect: false`. */
export async function signOut(options?: SignOutOptions<true>): Promise<void>
export async function signOut(options: SignOutOptions<false>): Promise<{ url: string }>
export async function signOut(options: SignOutOptions<boolean> = {}): Promise<{ url: string } | void> {
  const withBase = { ...options, basePath: options.basePath ?? defaultBasePath }
  if (withBase.redirect === false) return postSignOut({ ...withBase, redirect: false })
  return postSignOut({ ...withBase, redirect: true })
}
