/**
 * The adapter contract: the `Adapter` interface and its models, as `@auth/core/adapters` exports them.
 * The adapters themselves live in `authchart/adapters/memory`, `authchart/adapters/sql` and `authchart/adapters/redis`.
 * @module adapters
 */
export type {
  Adapter,
  AdapterAccount,
  AdapterAccountType,
  AdapterAuthenticator,
  AdapterFactor,
  AdapterFactorType,
  AdapterSession,
  NewAdapterFactor,
  AdapterUser,
  VerificationToken,
} from '../src/types/adapters.js'
export { isDate } from '../src/types/adapters.js'
