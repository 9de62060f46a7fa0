/**
 * The names and attributes of every cookie Authchart writes, for plain HTTP and for HTTPS. Names match Auth.js's, so
 * an Auth.js session cookie is read after a migration. On HTTPS the names carry `__Secure-` (or `__Host-` for the
 * CSRF and flow cookies, which are bound to the exact host and path `/`).
 */
import type { CookieOption, CookiesOptions, CookieSerializeOptions } from '../types/cookies.js'

/** The cookies of one request, with the user's overrides applied. */
export interface CookieSet {
  sessionToken: CookieOption
  callbackUrl: CookieOption
  csrfToken: CookieOption
  /** Authchart's single flow cookie; it replaces Auth.js's state, nonce, PKCE and WebAuthn-challenge cookies. */
  flow: CookieOption
}

const flowMaxAgeSeconds = 15 * 60

/** The attributes are frozen: derived figures (the session cookie's chunk size) are cached per attribute set. */
function withOverride(base: CookieOption, override: Partial<CookieOption> | undefined): CookieOption {
  if (!override) return { name: base.name, options: Object.freeze({ ...base.options }) }
  return { name: override.name ?? base.name, options: Object.freeze({ ...base.options, ...override.options }) }
}

/** Builds the cookie set for one security mode. Called once per config and mode, never per request. */
export function buildCookieSet(secure: boolean, overrides: Partial<CookiesOptions> = {}): CookieSet {
  const securePrefix = secure ? '__Secure-' : ''
  const hostPrefix = secure ? '__Host-' : ''
  const base: CookieSerializeOptions = { httpOnly: true, sameSite: 'lax', path: '/', secure }
  // Auth.js names one cookie per in-flight value; Authchart keeps them in one flow cookie. An app that renamed the PKCE
  // cookie gets that name and those attributes for the flow cookie (see docs/cookies.md).
  const flowOverride = overrides.pkceCodeVerifier ?? overrides.state ?? overrides.nonce
  return {
    sessionToken: withOverride({ name: `${securePrefix}authjs.session-token`, options: base }, overrides.sessionToken),
    callbackUrl: withOverride({ name: `${securePrefix}authjs.callback-url`, options: base }, overrides.callbackUrl),
    csrfToken: withOverride({ name: `${hostPrefix}authjs.csrf-token`, options: base }, overrides.csrfToken),
    flow: withOverride(
      { name: `${hostPrefix}authchart.flow`, options: { ...base, maxAge: flowMaxAgeSeconds } },
      flowOverride,
    ),
  }
}

/** Seconds an in-flight flow may wait for the browser (the flow cookie's Max-Age and the envelope's expiry). */
export const flowMaxAge = flowMaxAgeSeconds
