/** What the app is told of a user's second factors: the factor management events and the JSON endpoints. */
import type { AdapterFactorType } from './adapters.js'

/** A second factor as the user and the app see it: never its secret, never a code. */
export interface FactorSummary {
  id: string
  type: AdapterFactorType
  /** The name the user gave it ("phone"); `null` when none. */
  label: string | null
  /** Epoch milliseconds. */
  createdAt: number
}

/** The `factorEnrolled` and `factorRemoved` events. */
export interface FactorMessage {
  userId: string
  factor: FactorSummary
}
