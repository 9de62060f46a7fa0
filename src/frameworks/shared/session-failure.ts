/**
 * What a binding's session helper (`getSession`, `locals.auth()`, `getSession` of SolidStart) throws when `Auth()`'s
 * `/session` did not answer 200. A configuration that fails every request (no secret) throws the very error the
 * start-up check logged, with what to do, and without a stack: the app's error page (Express's, in development, shows
 * the stack) then says what is wrong and how to fix it, instead of "the session endpoint did not answer" and frames
 * inside Authchart that tell the developer nothing.
 */
import { configurationFailure } from '../../core/config-assertion.js'
import { FlowStoreUnavailable, InvalidConfig } from '../../errors.js'
import { hintOf } from '../../logger.js'
import type { AuthConfig } from '../../types/index.js'

export function sessionReadFailure(config: AuthConfig, status: number, body: unknown): Error {
  if (status === 503) return new FlowStoreUnavailable('the session store is unavailable', { status: 503 })
  const cause = configurationFailure(config)
  if (cause) {
    // Logged with its stack once already, at start-up; from here on only its sentences help: what is wrong, and the
    // hint the start-up log gave with it (what to do).
    const hint = hintOf(cause)
    cause.stack = `${cause.name}: ${cause.message}${hint === undefined ? '' : `. ${hint}`}`
    return cause
  }
  const reason = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).error : undefined
  return new InvalidConfig('the session endpoint did not answer', {
    status,
    error: typeof reason === 'string' ? reason : undefined,
  })
}
