/**
 * Turns the provider's profile and tokens into the app's user and account: the provider's `profile()` and
 * `account()` callbacks, `expires_at` from `expires_in`, the token type lowercased, and `providerAccountId` from the
 * id `profile()` returned.
 */
import type { OAuthConfigInternal } from '../../types/providers.js'
import { defaultAccount, defaultProfile } from '../../providers-internal/profile-defaults.js'
import type { Account, Profile, TokenSet, User } from '../../types/index.js'
import { profileFailure } from './oauth-failure.js'

/** The user and account of one OAuth sign-in. */
export interface MappedSignIn {
  user: User & { id: string }
  account: Account
  tokens: TokenSet
}

function idOf(value: unknown): string | undefined {
  if (typeof value === 'string' && value.length > 0) return value
  if (typeof value === 'number' || typeof value === 'bigint') return String(value)
  return undefined
}

// The spec's Account says token_type is "always lowercased"; TypeScript cannot see that toLowerCase() does that.
const lowercase = (value: string) => value.toLowerCase() as Lowercase<string>

/** The token set with `expires_at` (epoch seconds) derived from `expires_in`, as the spec's Account has it. */
export function withExpiresAt(tokens: TokenSet, nowSeconds: number): TokenSet {
  const expiresIn = typeof tokens.expires_in === 'string' ? Number.parseFloat(tokens.expires_in) : tokens.expires_in
  if (typeof expiresIn !== 'number' || !Number.isFinite(expiresIn)) return { ...tokens }
  return { ...tokens, expires_at: nowSeconds + Math.floor(expiresIn) }
}

/**
 * Runs the provider's `profile()` and `account()` for one sign-in.
 * @throws OAuthProfileParseError when `profile()` throws or returns no id
 */
export async function mapUserAndAccount(
  provider: OAuthConfigInternal,
  profile: Profile,
  rawTokens: TokenSet,
  nowSeconds: number,
): Promise<MappedSignIn> {
  const tokens = withExpiresAt(rawTokens, nowSeconds)
  let mapped: unknown
  try {
    mapped = await (provider.profile ?? defaultProfile)(profile, tokens)
  } catch (err) {
    throw profileFailure(`profile() of provider "${provider.id}" threw`, { provider: provider.id }, err)
  }
  if (typeof mapped !== 'object' || mapped === null)
    throw profileFailure(`profile() of provider "${provider.id}" returned no user`, { provider: provider.id })
  const user = mapped as User
  const id = idOf(user.id)
  if (!id)
    throw profileFailure(`profile() of provider "${provider.id}" returned a user without id`, { provider: provider.id })
  // As in Auth.js, e-mail addresses are compared lowercased everywhere (account linking, getUserByEmail).
  const email = typeof user.email === 'string' ? user.email.toLowerCase() : user.email
  const accountFields = (provider.account ?? defaultAccount)(tokens) ?? defaultAccount(tokens)
  const tokenType = typeof accountFields.token_type === 'string' ? lowercase(accountFields.token_type) : undefined
  const account: Account = {
    ...accountFields,
    ...(tokenType ? { token_type: tokenType } : {}),
    provider: provider.id,
    type: provider.type,
    providerAccountId: id,
  }
  return { user: { ...user, id, ...(email !== undefined ? { email } : {}) }, account, tokens }
}
