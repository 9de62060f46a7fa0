// The user's devices through session management: GET lists them, POST ends all but this one. (The event is typed by
// the one member used, so the same file serves SolidStart 1 and 2.)
import { listSessions, revokeOtherSessions } from 'authchart/solid-start'
import { authConfig } from '../../lib/auth'

export async function GET(event: { request: Request }): Promise<Response> {
  return Response.json(await listSessions(event.request, authConfig))
}

export async function POST(event: { request: Request }): Promise<Response> {
  return Response.json({ ended: await revokeOtherSessions(event.request, authConfig) })
}
