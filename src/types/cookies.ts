/** Types of cookies: their serialisation options, the seven configurable kinds, and the records responses carry. */

/** Cookie serialisation options (the `Set-Cookie` attributes). */
export interface CookieSerializeOptions {
  domain?: string
  expires?: Date
  httpOnly?: boolean
  maxAge?: number
  partitioned?: boolean
  path?: string
  priority?: 'low' | 'medium' | 'high'
  sameSite?: boolean | 'lax' | 'strict' | 'none'
  secure?: boolean
}

/** One configurable cookie: its name and attributes. */
export interface CookieOption {
  name: string
  options: CookieSerializeOptions
}

/**
 * The seven cookie kinds of Auth.js. Authchart keeps the in-flight values of `state`, `nonce`, `pkceCodeVerifier`
 * and `webauthnChallenge` in one flow cookie; its name and attributes come from `pkceCodeVerifier`'s entry when given
 * (see docs/cookies.md).
 */
export interface CookiesOptions {
  sessionToken: Partial<CookieOption>
  callbackUrl: Partial<CookieOption>
  csrfToken: Partial<CookieOption>
  pkceCodeVerifier: Partial<CookieOption>
  state: Partial<CookieOption>
  nonce: Partial<CookieOption>
  webauthnChallenge: Partial<CookieOption>
}

/** A cookie to set (or, with `maxAge: 0`, to clear) on the response. */
export interface CookieRecord {
  name: string
  value: string
  options: CookieSerializeOptions
}
