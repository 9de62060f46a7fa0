/** Sends the app's audit events. They are fire-and-report: an event handler that throws is logged, never fatal. */
import { EventError } from '../../errors.js'
import type { EventCallbacks } from '../../types/index.js'
import type { EffectEnv } from './effect-env.js'

/**
 * Calls `events[name]` with its message, logging (not throwing) what it throws. Nothing to wait for (undefined) when
 * the app listens to no such event.
 */
export function emitAppEvent<K extends keyof EventCallbacks>(
  env: EffectEnv,
  name: K,
  message: Parameters<EventCallbacks[K]>[0],
): Promise<void> | undefined {
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
