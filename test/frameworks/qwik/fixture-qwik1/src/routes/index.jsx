import { component$ } from '@builder.io/qwik'
import { Form } from '@builder.io/qwik-city'
import { useSession, useSignIn, useSignOut } from './plugin@auth'

export default component$(() => {
  const session = useSession()
  const signIn = useSignIn()
  const signOut = useSignOut()
  const user = session.value?.user
  return (
    <main>
      <p id="status">{user ? `Signed in as ${user.name}` : 'Not signed in'}</p>
      {/* A full-page post: the answer is a redirect to the provider, on another origin. */}
      <Form action={signIn} reloadDocument>
        <input type="hidden" name="providerId" value="oidc" />
        <input type="hidden" name="redirectTo" value="/protected/" />
        <input type="hidden" name="authorizationParams.login_hint" value="alice" />
        <button type="submit">Sign in with oidc</button>
      </Form>
      <Form action={signOut}>
        <input type="hidden" name="redirectTo" value="/" />
        <button type="submit">Sign out</button>
      </Form>
    </main>
  )
})
