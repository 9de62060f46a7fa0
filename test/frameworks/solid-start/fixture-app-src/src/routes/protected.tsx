import { createAsync, query } from '@solidjs/router'
import { protectedUser } from '../lib/server'

const user = query(() => protectedUser(), 'protected-user')

export default function Protected() {
  // deferStream: the page's first byte waits for the session, so a redirect can still be sent as a redirect.
  const line = createAsync(() => user(), { deferStream: true })
  return (
    <main>
      <p id="user">{line()}</p>
    </main>
  )
}
