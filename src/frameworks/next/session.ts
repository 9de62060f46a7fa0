/**
 * Reads the session of a request for `auth()` through the bindings' one in-process session reader
 * (../shared/session-reader.ts): the session and jwt callbacks run as they do for the browser's `/session` call, with
 * no web `Request`, `Response` or JSON in between, and the same error policy as every other binding. The cookies the
 * check sets (a re-sealed session cookie, or the deletion of an unreadable one) are returned for the caller to pass
 * on where it can: a Middleware's and a Route Handler's response, or `cookies()` in a Server Action.
 */
import type { Session } from '../../types/index.js'
import { readSession as readSessionInProcess } from '../shared/session-reader.js'
import type { PreparedNextConfig as NextAuthConfig } from './config.js'
import { appOrigin, type HeaderSource } from './origin.js'

export interface SessionRead {
  session: Session | null
  /** The Set-Cookie lines of the check's answer. */
  setCookies: string[]
}

/**
 * The session of the request whose headers are `headers`. Next.js hands a Server Component no socket, so the client
 * has no peer address here (only the per-client limits of a sign-in need one, and a session check has none).
 * @throws AdapterError, FlowStoreUnavailable, the configuration's own error, InvalidConfig or InvalidRequest, as
 *   every binding's session reader does
 */
export async function readSession(headers: HeaderSource, config: NextAuthConfig): Promise<SessionRead> {
  const reading = await readSessionInProcess(
    { origin: appOrigin(headers, config), header: (name) => headers.get(name) },
    config,
  )
  return { session: reading.session, setCookies: [...reading.setCookie] }
}
