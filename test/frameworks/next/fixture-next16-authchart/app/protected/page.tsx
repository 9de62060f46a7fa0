import { redirect } from 'next/navigation'
import { auth } from '@/auth'

export const dynamic = 'force-dynamic'

// The page the binding conformance suite reads the session on (test/frameworks/support/binding-conformance.ts).
export default async function Protected() {
  const session = await auth()
  if (!session?.user) redirect('/api/auth/signin?callbackUrl=%2Fprotected')
  return <p id="user">{`Protected page for ${session.user.name ?? ''} (${session.user.email ?? ''})`}</p>
}
