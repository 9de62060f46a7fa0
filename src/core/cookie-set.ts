/**
 * The names and attributes of every cookie Authchart writes, for plain HTTP and for HTTPS. Names match Auth.js's, so
 * an Auth.js session cookie is read after a migration. On HTTPS the names carry `__Secure-` (or `__Host-` for the
 * CSRF and flow cookies, which are bound to the exact host and path `/`).
 */
import type { CookieOption, CookiesOptions, CookieSerializeOptions } from '../types/cookies.js'
import { pendingSignInSeconds } from '../factors/enrolment-pending-sign-in.js'

/** The cookies of one request, with the user's overrides applied. */
export interface CookieSet {
  sessionToken: CookieOption
  callbackUrl: CookieOption
  csrfToken: CookieOption
  /** Authchart's single flow cookie; it replaces Auth.js's state, nonce, PKCE and WebAuthn-challenge cookies. */
  flow: CookieOption
  /** Authchart's device cookie: a browser known from a good credentials sign-in keeps its own failure budget. */
  device: CookieOption
  /** Authchart's second-factor cookie: the sign-in stopped at its challenge (which machine, and its flow's ref). */
  secondFactor: CookieOption
  /**
   * Authchart's enrolment cookie: a sign-in the `secondFactor` policy holds until the user enrols a factor (sealed;
   * not a session, only the factors endpoints read it).
   */
  enrolmentPending: CookieOption
  /**
   * Authchart's e-mail trace cookie: the W3C trace context of an e-mail sign-in's first request, set only while an
   * OpenTelemetry SDK records it, so the link opened in the same browser joins that trace. Its Max-Age is the
   * provider's token lifetime, given where it is written.
   */
  emailTrace: CookieOption
}

const flowMaxAgeSeconds = 15 * 60

/** OWASP suggests a long life for device cookies: the device stays known across its owner's ordinary absences. */
const deviceMaxAgeSeconds = 180 * 24 * 60 * 60

/** The attributes are frozen: derived figures (the session cookie's chunk size) are cached per attribute set. */
function withOverride(base: CookieOption, override: Partial<CookieOption> | undefined): CookieOption {
  if (!override) return { name: base.name, options: Object.freeze({ ...base.options }) }
  return { name: override.name ?? base.name, options: Object.freeze({ ...base.options, ...override.options }) }
}

/** Auth.js's in-flight cookies, in the order the first one set gives the flow cookie its name and attributes. */
const flowCookieKeys = ['pkceCodeVerifier', 'state', 'nonce', 'webauthnChallenge'] as const

/** Which of Auth.js's in-flight cookie keys names the flow cookie, if the app set any. */
function flowCookieKey(overrides: Partial<CookiesOptions>): (typeof flowCookieKeys)[number] | undefined {
  return flowCookieKeys.find((key) => overrides[key] !== undefined)
}

/**
 * The parts of a `cookies` option that change nothing, each as `cookies.<key>` (or `cookies.<key>.options`): keys
 * Authchart does not know, the in-flight keys after the one that names the flow cookie, and the callback-URL
 * cookie's attributes (it is only read, by its name, never written). Warned once at start-up as
 * `cookie-option-unused`, so no setting silently does nothing.
 */
export function unusedCookieOptions(overrides: Partial<CookiesOptions> | undefined): string[] {
  if (!overrides) return []
  const known = new Set<string>(['sessionToken', 'csrfToken', 'callbackUrl', ...flowCookieKeys])
  const unused = Object.keys(overrides).filter((key) => !known.has(key))
  const used = flowCookieKey(overrides)
  for (const key of flowCookieKeys) if (overrides[key] !== undefined && key !== used) unused.push(key)
  if (overrides.callbackUrl?.options !== undefined) unused.push('callbackUrl.options')
  return unused.map((key) => `cookies.${key}`)
}

/** Builds the cookie set for one security mode. Called once per config and mode, never per request. */
export function buildCookieSet(secure: boolean, overrides: Partial<CookiesOptions> = {}): CookieSet {
  const securePrefix = secure ? '__Secure-' : ''
  const hostPrefix = secure ? '__Host-' : ''
  const base: CookieSerializeOptions = { httpOnly: true, sameSite: 'lax', path: '/', secure }
  // Auth.js names one cookie per in-flight value; Authchart keeps them in one flow cookie. An app that renamed the PKCE
  // cookie (else state, nonce, then the WebAuthn challenge's) gets that name and those attributes for the flow
  // cookie (see docs/cookies.md).
  const flowOverride = overrides[flowCookieKey(overrides) ?? 'pkceCodeVerifier']
  return {
    sessionToken: withOverride({ name: `${securePrefix}authjs.session-token`, options: base }, overrides.sessionToken),
    callbackUrl: withOverride({ name: `${securePrefix}authjs.callback-url`, options: base }, overrides.callbackUrl),
    csrfToken: withOverride({ name: `${hostPrefix}authjs.csrf-token`, options: base }, overrides.csrfToken),
    flow: withOverride(
      { name: `${hostPrefix}authchart.flow`, options: { ...base, maxAge: flowMaxAgeSeconds } },
      flowOverride,
    ),
    device: {
      name: `${hostPrefix}authchart.device`,
      options: Object.freeze({ ...base, maxAge: deviceMaxAgeSeconds }),
    },
    // Apart from the flow cookie: an OAuth callback clears that one in the same response that stops at the challenge.
    secondFactor: {
      name: `${hostPrefix}authchart.second-factor`,
      options: Object.freeze({ ...base, maxAge: flowMaxAgeSeconds }),
    },
    enrolmentPending: {
      name: `${hostPrefix}authchart.enrolment-pending`,
      options: Object.freeze({ ...base, maxAge: pendingSignInSeconds }),
    },
    emailTrace: { name: `${hostPrefix}authchart.email-trace`, options: Object.freeze({ ...base }) },
  }
}

/** Seconds an in-flight flow may wait for the browser (the flow cookie's Max-Age and the envelope's expiry). */
export const flowMaxAge = flowMaxAgeSeconds
