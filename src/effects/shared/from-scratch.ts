/** Reading the run's scratch (src/flow/runtime.ts, `FlowScratch`), which every key of begins absent. */
import { AuthError } from '../../errors.js'

/**
 * A value an earlier step of this run left in the scratch. The machine runs that step first on every path to the
 * one asking; a handler that finds nothing was called out of order, which is a bug, not a user's mistake.
 * @throws AuthError naming the missing value
 */
export function fromScratch<T>(value: T | undefined, name: string): T {
  if (value === undefined) throw new AuthError(`a handler needs ${name}, which no earlier step of this run left`)
  return value
}
