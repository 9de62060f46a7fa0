import { redirect } from '@sveltejs/kit'

// Authorization in this page's own load, not in a shared layout: a layout load does not run again on every
// client-side navigation, so it cannot guard the pages below it.
export async function load({ locals, url }) {
  const session = await locals.auth()
  if (!session?.user) redirect(303, `/auth/signin?${new URLSearchParams({ callbackUrl: url.pathname })}`)
  return { user: session.user }
}
