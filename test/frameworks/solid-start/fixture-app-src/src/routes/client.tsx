import { createAsync, query } from '@solidjs/router'
import { createSignal, Show } from 'solid-js'
import { signIn, signOut } from 'authchart/solid-start/client'
import { authPrefix } from '../lib/server'

const prefix = query(() => authPrefix(), 'auth-prefix')

export default function Client() {
  const basePath = createAsync(() => prefix(), { deferStream: true })
  const [result, setResult] = createSignal('')
  async function wrong() {
    const outcome = await signIn('credentials', { username: 'alice', password: 'not-the-password', redirect: false, basePath: basePath() })
    setResult(`error=${outcome.error} ok=${outcome.ok}`)
  }
  return (
    <main>
      <Show when={basePath()}>
        <button id="client-wrong" onClick={wrong}>Wrong password</button>
        <button id="client-signin" onClick={() => signIn('credentials', { username: 'alice', password: 'wonderland', redirectTo: '/protected', basePath: basePath() })}>Sign in</button>
        <button id="client-signout" onClick={() => signOut({ redirectTo: '/', basePath: basePath() })}>Sign out</button>
      </Show>
      <p id="result">{result()}</p>
    </main>
  )
}
