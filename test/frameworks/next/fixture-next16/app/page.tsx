import { auth } from '@/auth'
import { signInWithOidc, signInWithPassword, signOutAction } from './actions'
import { ClientPanel } from './client-panel'

export const dynamic = 'force-dynamic'

export default async function Home() {
  const session = await auth()
  return (
    <main>
      <p id="server-user">{session?.user?.name ?? 'nobody'}</p>
      <p id="status">{session?.user ? `Signed in as ${session.user.name ?? ''}` : 'Not signed in'}</p>
      <form id="sign-in" action={signInWithPassword}>
        <input name="username" defaultValue="Alice" />
        <input name="password" type="password" />
        <input type="hidden" name="redirectTo" value="/dashboard" />
        <button type="submit">Sign in</button>
      </form>
      <form id="sign-in-oidc" action={signInWithOidc}>
        <button type="submit">Sign in with the OP</button>
      </form>
      <form id="sign-out" action={signOutAction}>
        <button type="submit">Sign out</button>
      </form>
      <ClientPanel />
    </main>
  )
}
