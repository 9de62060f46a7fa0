import { auth } from '@/auth'

export default async function Dashboard() {
  const session = await auth()
  return <p id="dashboard-user">{session?.user?.name}</p>
}
