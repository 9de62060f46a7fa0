/**
 * One sentence per warning code, printed by the built-in logger after the code: a bare code tells a newcomer nothing.
 * Keyed by every non-refusal `WarningCode`, so a new code without a sentence is a type error; refusals share one
 * sentence naming their check (each check is described in docs/security.md#refusal-codes).
 */
import type { WarningCode } from './types/logger.js'
import type { RefusalCode } from './types/refusals.js'

export const warningSentences: Readonly<Record<Exclude<WarningCode, RefusalCode>, string>> = {
  'debug-enabled': 'debug: true is set: every request and flow step is logged; turn it off in production.',
  'csrf-disabled':
    'The CSRF check is turned off (skipCSRFCheck): only a framework that checks CSRF itself should do this.',
  'experimental-webauthn':
    'Passkeys (experimental.enableWebAuthn) are experimental in Auth.js: their API may change between releases.',
  'env-url-basepath-redundant': 'AUTH_URL has a path and basePath is set too: basePath is used.',
  'env-url-basepath-mismatch': 'The path of AUTH_URL differs from basePath: basePath is used.',
  'secret-too-short': 'A secret is shorter than 32 characters: run npx authchart secret for a strong one.',
  'jwt-cookie-oversized': 'The session cookie is larger than a browser keeps in one cookie: it is split into chunks.',
  'flow-guard-not-boolean':
    'A guard in config.flows returned something else than true or false (a Promise?): it counts as false.',
  'redirect-proxy-without-allowlist':
    'A redirect proxy is configured without allowed origins (redirectProxyAllowedOrigins): it forwards nowhere.',
  'credentials-signin': 'A credentials sign-in was rejected: authorize() returned no user or threw CredentialsSignin.',
  'express-mount-basepath-mismatch':
    'ExpressAuth is mounted where its basePath can never match: requests are passed on; mount it at basePath.',
  'credentials-lockout': 'Too many failed credentials sign-ins: further attempts are refused until the lockout ends.',
  'cookie-option-unused': 'A cookies setting changes nothing in Authchart (see docs/cookies.md).',
  'credentials-user-unknown':
    'authorize() returned a user the database does not hold, so no database session can be made: create the user through the adapter first (adapter.createUser; docs/sessions.md#credentials-with-database-sessions), or use session: { strategy: "jwt" }.',
  'email-without-origin':
    'An e-mail provider is configured with neither url (AUTH_URL) nor allowedOrigins: no sign-in link is mailed, since its origin would come from the request Host (docs/security.md, the origin rule).',
  'unknown-action': 'A request under the auth base path names no action Authchart serves: it was answered with 400.',
  'client-input':
    'A request carried input that could not be used (an unreadable session cookie, a body that is not JSON, an unknown provider id): it was answered without a session.',
  'audit-sink-failed':
    'The audit sink (config.audit) threw or rejected: the record was lost, the request went on. Logged once until the sink works again.',
  'sveltekit-trusts-any-host':
    'This SvelteKit server trusts any Host header (trustHost, no AUTH_URL) without NODE_ENV=production: set AUTH_URL, or run it with NODE_ENV=production.',
}

function isRefusalCode(code: WarningCode): code is RefusalCode {
  return code.startsWith('refused:')
}

/** The sentence for `code`: a refusal's names its check. */
export function warningSentence(code: WarningCode): string {
  if (isRefusalCode(code)) {
    return `A request was refused by the ${code.slice('refused:'.length)} check (docs/security.md#refusal-codes).`
  }
  return warningSentences[code]
}
