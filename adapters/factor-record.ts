/** The one shape every adapter stores a second factor in. */
import type { AdapterFactor, NewAdapterFactor } from '../src/types/adapters.js'

/**
 * The stored fields of a factor: the recovery code hashes are kept apart (each is spent on its own), and nothing
 * else a caller put on the object comes along.
 */
export function factorRecord(factor: NewAdapterFactor): AdapterFactor {
  const { id, userId, type, secret, lastUsedStep, label, createdAt } = factor
  return { id, userId, type, secret, lastUsedStep, label, createdAt }
}
