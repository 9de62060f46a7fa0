import { createAsync, query } from '@solidjs/router'
import { createSignal, onMount, Show } from 'solid-js'
import { signIn, signOut } from 'authchart/solid-start/client'
import { authPrefix } from '../lib/server'

const prefix = query(() => authPrefix(), 'auth-prefix')

export default function Client() {
  // Set once the page is hydrated: the test clicks only then (a click before it has no handler).
  const [ready, setReady] = createSignal(false)
  onMount(() => setReady(true))
  const basePath = createAsync(() => prefix(), { deferStream: true })
  const [result, setResult] = createSignal('')
  async function wrong() {
    const outcome = await signIn('credentials', { username: 'alice', password: 'not-the-password', redirect: false, basePath: basePath() })
    setResult(`error=${outcome.error} ok=${outcome.ok}`)
  }
  return (
    <main data-ready={ready() ? 'yes' : 'no'}>
      <Show when={basePath()}>
        <button id="client-wrong" onClick={wrong}>Wrong password</button>
        <button id="client-signin" onClick={() => signIn('credentials', { username: 'alice', password: 'wonderland', redirectTo: '/protected', basePath: basePath() })}>Sign in</button>
        <button id="client-signout" onClick={() => signOut({ redirectTo: '/', basePath: basePath() })}>Sign out</button>
      </Show>
      <p id="result">{result()}</p>
    </main>
  )
}
