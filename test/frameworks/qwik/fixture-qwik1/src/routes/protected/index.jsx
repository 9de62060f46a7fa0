import { component$ } from '@builder.io/qwik'
import { sessionKey } from 'authchart/qwik'
import { useSession } from '../plugin@auth'

/** The protection: the plugin's onRequest ran first and left the session in sharedMap. */
export const onRequest = (event) => {
  const session = event.sharedMap.get(sessionKey)
  if (!session?.user) throw event.redirect(303, `/auth/signin?callbackUrl=${encodeURIComponent(event.url.pathname)}`)
}

export default component$(() => {
  const user = useSession().value?.user
  return (
    <main>
      <p id="user">{`Protected page for ${user?.name} (${user?.email})`}</p>
    </main>
  )
})
