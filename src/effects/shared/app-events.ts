/** Sends the app's audit events. They are fire-and-report: an event handler that throws is logged, never fatal. */
import { EventError } from '../../errors.js'
import type { EventCallbacks } from '../../types/index.js'
import type { EffectEnv, SessionAuditEvent } from './effect-env.js'

/**
 * Calls `events[name]` with its message, logging (not throwing) what it throws. Nothing to wait for (undefined) when
 * the app listens to no such event.
 */
export function emitAppEvent<K extends keyof EventCallbacks>(
  env: EffectEnv,
  name: K,
  message: Parameters<EventCallbacks[K]>[0],
): Promise<void> | undefined {
  // Every sign-in and sign-out passes here: the one edge where the audit trail learns who it was.
  if (env.audit && (name === 'signIn' || name === 'signOut')) env.audit(sessionAuditEvent(name, message))
  const handler = env.config.events[name] as ((m: typeof message) => unknown) | undefined
  if (!handler) return undefined
  return callEventHandler(env, name, handler, message)
}

async function callEventHandler<M>(
  env: EffectEnv,
  name: string,
  handler: (m: M) => unknown,
  message: M,
): Promise<void> {
  try {
    await handler(message)
  } catch (err) {
    env.config.logger.error(
      new EventError(`the ${name} event handler threw`, { err: err instanceof Error ? err : undefined }),
    )
  }
}

/** The ids and names of a `signIn` or `signOut` message (never its tokens or profile). */
function sessionAuditEvent(name: 'signIn' | 'signOut', message: unknown): SessionAuditEvent {
  const read = (value: unknown, key: string): unknown =>
    typeof value === 'object' && value !== null ? Reflect.get(value, key) : undefined
  const idOf = (value: unknown, key: string): string | undefined => {
    const id = read(value, key)
    return typeof id === 'string' ? id : undefined
  }
  const fields = { user: read(message, 'user'), account: read(message, 'account') }
  if (name === 'signIn')
    return {
      type: 'sign-in',
      userId: idOf(fields.user, 'id'),
      provider: idOf(fields.account, 'provider'),
      method: idOf(fields.account, 'type'),
    }
  // A database session names its user; a JWT session's subject is the user id.
  return { type: 'sign-out', userId: idOf(read(message, 'session'), 'userId') ?? idOf(read(message, 'token'), 'sub') }
}
