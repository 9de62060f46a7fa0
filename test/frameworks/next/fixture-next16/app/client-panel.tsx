'use client'
import { signIn, signOut, useSession } from 'next-auth/react'
import { useState } from 'react'

export function ClientPanel() {
  const { data, status, update } = useSession()
  const [result, setResult] = useState('')
  return (
    <section>
      <p id="client-status">{status}</p>
      <p id="client-user">{data?.user?.name ?? 'nobody'}</p>
      <p id="client-result">{result}</p>
      <button
        id="client-sign-in"
        onClick={async () => {
          // A refused sign-in has `error` set (next-auth's `ok` is the HTTP answer's).
          const answer = await signIn('credentials', { username: 'Carol', password: 'wonderland', redirect: false })
          setResult(answer?.error ? `failed:${answer.error}` : 'signed-in')
        }}
      >
        Sign in (client)
      </button>
      <button id="client-bad-sign-in" onClick={async () => {
        const answer = await signIn('credentials', { username: 'Carol', password: 'wrong', redirect: false })
        setResult(answer?.error ? `failed:${answer.error}` : 'signed-in')
      }}>
        Wrong password (client)
      </button>
      <button id="client-sign-in-oidc" onClick={() => void signIn('oidc', { redirectTo: '/' })}>
        Sign in with the OP (client)
      </button>
      <button id="client-update" onClick={() => void update({ user: { name: 'Renamed' } })}>
        Rename
      </button>
      <button id="client-sign-out" onClick={() => void signOut({ redirect: false })}>
        Sign out (client)
      </button>
    </section>
  )
}
