import { component$ } from '@builder.io/qwik'
import { Form } from '@builder.io/qwik-city'
import { useSignIn } from '../plugin@auth'

export default component$(() => {
  const signIn = useSignIn()
  return (
    <main>
      {/* Submitted by Qwik City's client (no page reload) unless JavaScript is off. */}
      <Form action={signIn} id="credentials">
        <input type="hidden" name="providerId" value="credentials" />
        <input type="hidden" name="redirectTo" value="/protected/" />
        <input name="username" />
        <input name="password" type="password" />
        <button type="submit">Sign in with credentials</button>
      </Form>
      {/* The form as an @auth/qwik app writes it: the provider's fields under `options.` (Qwik City nests them). */}
      <Form action={signIn} id="authjs-options">
        <input type="hidden" name="providerId" value="credentials" />
        <input type="hidden" name="options.redirectTo" value="/protected/" />
        <input name="options.username" />
        <input name="options.password" type="password" />
        <button type="submit">Sign in with options fields</button>
      </Form>
      <button id="bad-provider" type="button" onClick$={() => signIn.submit({ providerId: 'nope', redirectTo: '//evil.test/' })}>
        Bad sign-in
      </button>
      <pre id="result">{signIn.value ? JSON.stringify(signIn.value) : ''}</pre>
    </main>
  )
})
