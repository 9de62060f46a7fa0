// The user's devices, through the binding's session-management calls: GET lists them, POST ends all but this one.
import { json } from '@sveltejs/kit'
import { listSessions, revokeOtherSessions } from '../../lib/auth.server.js'

export async function GET(event) {
  return json(await listSessions(event))
}

export async function POST(event) {
  return json({ ended: await revokeOtherSessions(event) })
}
