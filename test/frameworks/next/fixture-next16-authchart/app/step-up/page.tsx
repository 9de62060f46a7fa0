import { requireRecentAuth } from '@/auth'

export const dynamic = 'force-dynamic'

// Step-up (docs/step-up.md): only a sign-in of the last minute sees this page; an older one signs in again first.
export default async function StepUp() {
  const { authTime } = await requireRecentAuth({ maxAge: 60, callbackUrl: '/step-up' })
  return <p id="auth-time">{String(authTime)}</p>
}
