// Compiled by the fixture test with the repository's TypeScript against this SolidStart major's own types: the
// published declarations of authchart/solid-start must fit them, and not by being `any`.
import type { APIEvent } from '@solidjs/start/server'
import { getSession, requireSession, SolidAuth, type SolidAuthConfig } from 'authchart/solid-start'
import { signIn, signOut } from 'authchart/solid-start/client'
import type { Session } from 'authchart/types'

const config: SolidAuthConfig = { prefix: '/auth', providers: [] }
const { GET, POST } = SolidAuth(config)

// The handlers are SolidStart API route handlers.
export const routeGet: (event: APIEvent) => Promise<Response | undefined> = GET
export const routePost: (event: APIEvent) => Promise<Response | undefined> = POST

export async function server(event: APIEvent): Promise<string | null> {
  const session: Session | null = await getSession(event.request, config)
  const guarded = await requireSession(event.request, config, { redirectTo: '/' })
  // @ts-expect-error a session's user is an object, not a number (fails if the declarations were `any`)
  const wrong: number = guarded.user
  return session?.user?.name ?? String(wrong)
}

export async function browser(): Promise<void> {
  const result = await signIn('credentials', { username: 'alice', redirect: false })
  const ok: boolean = result.ok
  // @ts-expect-error signIn without `redirect: false` resolves to nothing
  const nothing: { ok: boolean } = await signIn('github')
  await signOut({ redirectTo: '/', basePath: '/auth' })
  void ok
  void nothing
}

// @ts-expect-error prefix is a path string
SolidAuth({ prefix: 42, providers: [] })
