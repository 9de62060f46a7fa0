/**
 * Logging a flow's refusal once, under its check code: the check a machine recorded when it refused (`refusal` in
 * its final context), or the check the runtime made before the machine ran (a missing, replayed, expired or foreign
 * flow).
 */
import type { FlowRejected } from '../errors.js'
import { logRefusal } from '../logger.js'
import { isRefusalCheck, type RefusalCheck } from '../security/refusals.js'
import type { RequestContext } from './context.js'

/** Logs the refusal a machine's final context names, if it names one. */
export function logMachineRefusal(ctx: RequestContext, context: Record<string, unknown>, detail: { flowId?: string; provider?: string }): void {
  if (!isRefusalCheck(context.refusal)) return
  const reason = typeof context.refusalReason === 'string' ? context.refusalReason : undefined
  logRefusal(ctx.config.logger, context.refusal, { ...detail, reason })
}

/**
 * The check code of a flow the runtime refused before its machine ran. A store that answers nothing has either never
 * seen the ref or already handed it out: under a single-use store (Redis) that is a replay; a cookie that will not
 * open is forged, foreign or corrupt.
 */
export function rejectedFlowCheck(error: FlowRejected, storeKind: string | undefined): RefusalCheck {
  const check = (error.cause as { check?: unknown } | undefined)?.check
  if (check === 'expiry') return 'flow-expired'
  if (check === 'flow') return storeKind === 'cookie' ? 'flow-invalid' : 'flow-replayed'
  return 'flow-invalid'
}
