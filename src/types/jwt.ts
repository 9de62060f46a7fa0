/** Types of the session token and of the JWT module. */
import type { Awaitable } from './models.js'

/** The claims Authchart itself sets; the app may add any other through the `jwt` callback. */
export interface DefaultJWT {
  name?: string | null
  email?: string | null
  picture?: string | null
  sub?: string
  iat?: number
  exp?: number
  jti?: string
}

/** The decoded session token. */
export interface JWT extends Record<string, unknown>, DefaultJWT {}

/** Parameters of `encode`. */
export interface JWTEncodeParams<Payload = JWT> {
  /** Seconds until the token expires. Default 30 days. */
  maxAge?: number
  /** Key-derivation salt; the session cookie's name. */
  salt: string
  /** Secret (or rotation list, newest first) the key is derived from. */
  secret: string | string[]
  token?: Payload
}

/** Parameters of `decode`. */
export interface JWTDecodeParams {
  salt: string
  secret: string | string[]
  token?: string
}

/** The `jwt` config option. */
export interface JWTOptions {
  maxAge: number
  encode: (params: JWTEncodeParams) => Awaitable<string>
  decode: (params: JWTDecodeParams) => Awaitable<JWT | null>
}
