import { createAsync, query } from '@solidjs/router'
import { createSignal, onMount, Show } from 'solid-js'
import { signIn, signOut } from 'authchart/solid-start/client'
import { authPrefix, signedInAs } from '../lib/server'

const whoIsSignedIn = query(() => signedInAs(), 'signed-in-as')
const prefix = query(() => authPrefix(), 'auth-prefix')

export default function Home() {
  // Set once the page is hydrated: the test clicks only then (a click before it has no handler).
  const [ready, setReady] = createSignal(false)
  onMount(() => setReady(true))
  const name = createAsync(() => whoIsSignedIn(), { deferStream: true })
  const prefixed = createAsync(() => prefix(), { deferStream: true })
  // The client's default is /api/auth: pass the prefix only when the server uses another one.
  const basePath = () => (prefixed() === '/api/auth' ? undefined : prefixed())
  return (
    <main data-ready={ready() ? 'yes' : 'no'}>
      <p id="status">{name() ? `Signed in as ${name()}` : 'Not signed in'}</p>
      <Show when={prefixed()}>
        <button onClick={() => signIn('oidc', { redirectTo: '/protected', basePath: basePath() })}>Sign in with oidc</button>
        <button onClick={() => signOut({ redirectTo: '/', basePath: basePath() })}>Sign out</button>
      </Show>
      <a href="/client">client</a>
    </main>
  )
}
