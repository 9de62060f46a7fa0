/**
 * Authchart: authentication for web applications, with every sign-in flow written as a statechart.
 * The API is Auth.js's (`@auth/core`): switch the import specifier and keep your app and its sessions.
 * @module authchart
 */
export { Auth } from './core/auth.js'
export { setClientAddress } from './core/client-address.js'
export { getAccessToken } from './core/access-token.js'
export {
  listSessions,
  revokeOtherSessions,
  revokeSession,
  revokeUserSessions,
  type ListedSession,
} from './core/session-management.js'
export {
  getSessionAuthentication,
  requireRecentAuth,
  type RequireRecentAuthOptions,
  type SessionAuthentication,
} from './core/step-up.js'
export { createActionURL, setEnvDefaults } from './core/env.js'
export { isAuthAction } from './core/request.js'
export { customFetch, raw, skipCSRFCheck } from './types/symbols.js'
export type * from './types/index.js'
// Named as well as starred: `declare module 'authchart' { interface Session {...} }` merges only into names a module
// exports by name (an augmentation of a star-exported name declares a new, unrelated type).
export type {
  Account,
  AdapterAccount,
  AdapterSession,
  AdapterUser,
  DefaultJWT,
  DefaultSession,
  JWT,
  Profile,
  Session,
  User,
} from './types/index.js'
export type { ErrorType } from './errors.js'
