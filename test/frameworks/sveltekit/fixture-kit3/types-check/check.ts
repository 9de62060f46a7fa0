// Compiled by the test with `tsc -p types-check` (never built into the app): the published declarations of
// authchart/sveltekit fit SvelteKit 3's own types, and what they promise is not `any`.
import type { Actions, ServerLoad } from '@sveltejs/kit'
import type { Handle } from '@sveltejs/kit/hooks'
import { SvelteKitAuth, type SvelteKitAuthConfig } from 'authchart/sveltekit'
import { signIn as clientSignIn, signOut as clientSignOut, type SignInResponse } from 'authchart/sveltekit/client'
import type { SignInProps, SignOutProps } from 'authchart/sveltekit/components'
import Credentials from 'authchart/providers/credentials'

const auth = SvelteKitAuth({ providers: [Credentials({ credentials: {}, authorize: async () => null })] })
export const handle: Handle = auth.handle
export const actions: Actions = { signin: auth.signIn, signout: auth.signOut }
export const load: ServerLoad = async ({ locals }) => {
  const session = await locals.auth()
  return { name: session?.user?.name ?? null }
}
let cached: SvelteKitAuthConfig | undefined
export const lazy = SvelteKitAuth(async (event) => (cached ??= { providers: [], trustHost: event.url.protocol === 'https:' }))
export const signInProps: SignInProps = { provider: 'github', options: { redirectTo: '/' }, authorizationParams: { prompt: 'login' } }
export const signOutProps: SignOutProps = { options: { redirectTo: '/' } }
export async function reportWrongPassword(): Promise<SignInResponse> {
  return clientSignIn('credentials', { username: 'alice', password: 'wrong', redirect: false })
}
export const signOutNow: () => Promise<void> = () => clientSignOut()

// @ts-expect-error the hook is a function, not a number (fails if the declarations degrade to `any`)
export const notANumber: number = auth.handle
export async function sessionIsNotAString(): Promise<void> {
  // @ts-expect-error locals.auth() resolves to Session | null
  const wrong: string = await ({} as App.Locals).auth()
  void wrong
}
