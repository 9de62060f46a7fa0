/**
 * Authchart: authentication for web applications, with every sign-in flow written as a statechart.
 * The API is Auth.js's (`@auth/core`): switch the import specifier and keep your app and its sessions.
 * @module authchart
 */
export { Auth } from './core/auth.js'
export { createActionURL, setEnvDefaults } from './core/env.js'
export { isAuthAction } from './core/request.js'
export { customFetch, raw, skipCSRFCheck } from './types/symbols.js'
export type * from './types/index.js'
export type { ErrorType } from './errors.js'
