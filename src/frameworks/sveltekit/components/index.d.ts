/**
 * Types of the Svelte components (`authchart/sveltekit/components`), which ship as `.svelte` source for the app's
 * own SvelteKit build to compile.
 * @module frameworks/sveltekit/components
 */
import type { Component, Snippet } from 'svelte'

export interface SignInProps {
  /** The provider id; without one, the action opens the sign-in page. */
  provider?: string
  /** The route whose default form action is `signIn`; default `signin`. */
  signInPage?: string
  /** `redirectTo` and any other fields to post (hidden inputs). */
  options?: { redirectTo?: string } & Record<string, string | number | boolean | undefined>
  /** Put on the action's query string and passed on to the provider's authorization request. */
  authorizationParams?: string | Array<[string, string]> | Record<string, string> | URLSearchParams
  /** Where the auth endpoints live, for the CSRF token; default `/auth`. */
  basePath?: string
  class?: string
  credentials?: Snippet
  email?: Snippet
  submitButton?: Snippet
}

export interface SignOutProps {
  /** The route whose default form action is `signOut`; default `signout`. */
  signOutPage?: string
  options?: { redirectTo?: string }
  basePath?: string
  class?: string
  submitButton?: Snippet
}

export declare const SignIn: Component<SignInProps>
export declare const SignOut: Component<SignOutProps>
