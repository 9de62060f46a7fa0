/**
 * The provider tokens a session keeps for token refresh, and where a JWT session keeps them: one claim of
 * Authchart's own (`authchart:tokens`), keyed by provider id. The app's `jwt` and `session` callbacks never see that
 * claim, so it cannot collide with the app's fields (Auth.js's refresh recipe keeps `access_token`, `expires_at` and
 * `refresh_token` at the top level of the token) and cannot reach the browser through a session callback that
 * spreads the token.
 */
import type { JWT } from '../../types/jwt.js'
import type { TokenSet } from '../../types/index.js'

/** The claim under which a JWT session keeps provider tokens. */
export const providerTokensClaim = 'authchart:tokens'

/** What is kept per provider: the OAuth names, as the account row has them. */
export interface ProviderTokens {
  access_token?: string
  refresh_token?: string
  /** Epoch seconds. */
  expires_at?: number
  /** Kept in the account row only (a JWT session has no use for it and the cookie no room). */
  id_token?: string
}

const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value.length > 0

/** The refresh-relevant tokens of a token set or account row; anything of the wrong type is left out. */
export function providerTokensOf(tokens: TokenSet | Record<string, unknown>): ProviderTokens {
  const out: ProviderTokens = {}
  if (nonEmpty(tokens.access_token)) out.access_token = tokens.access_token
  if (nonEmpty(tokens.refresh_token)) out.refresh_token = tokens.refresh_token
  const expiresAt = typeof tokens.expires_at === 'string' ? Number(tokens.expires_at) : tokens.expires_at
  if (typeof expiresAt === 'number' && Number.isFinite(expiresAt)) out.expires_at = expiresAt
  if (nonEmpty(tokens.id_token)) out.id_token = tokens.id_token
  return out
}

/** Neither token is left: a refresh was refused and the session carries the mark. */
export function isMarked(tokens: ProviderTokens): boolean {
  return tokens.access_token === undefined && tokens.refresh_token === undefined
}

function entriesOf(token: JWT): Record<string, unknown> | undefined {
  const claim = token[providerTokensClaim]
  return typeof claim === 'object' && claim !== null && !Array.isArray(claim)
    ? (claim as Record<string, unknown>)
    : undefined
}

/** The tokens a JWT session keeps for `providerId`, or undefined when it keeps none. */
export function providerTokensIn(token: JWT, providerId: string): ProviderTokens | undefined {
  const entry = entriesOf(token)?.[providerId]
  if (typeof entry !== 'object' || entry === null) return undefined
  return providerTokensOf(entry as Record<string, unknown>)
}

/** The ids of the providers whose tokens a JWT session keeps. */
export function providersWithTokens(token: JWT): string[] {
  return Object.keys(entriesOf(token) ?? {})
}

/** The token with `tokens` kept for `providerId` (the ID token left out: the cookie has no room to spare). */
export function withProviderTokens(token: JWT, providerId: string, tokens: ProviderTokens): JWT {
  const { id_token: _idToken, ...kept } = tokens
  return { ...token, [providerTokensClaim]: { ...entriesOf(token), [providerId]: kept } }
}

/** The token as the app's callbacks see it (without Authchart's claim), and the claim to put back afterwards. */
export function splitProviderTokens(token: JWT): { visible: JWT; own: unknown } {
  if (!(providerTokensClaim in token)) return { visible: token, own: undefined }
  const { [providerTokensClaim]: own, ...visible } = token
  return { visible, own }
}

/** The app's token with Authchart's claim put back, when there was one. */
export function rejoinProviderTokens(token: JWT, own: unknown): JWT {
  return own === undefined ? token : { ...token, [providerTokensClaim]: own }
}
