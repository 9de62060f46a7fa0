/**
 * What an OAuth provider's `profile()` and `account()` do when the provider gives none: the spec's defaults.
 */
import type { Profile, TokenSet, User } from '../types/index.js'

/** A provider's account id as a string (GitHub and GitLab send numbers); undefined when there is none. */
export function profileId(value: unknown): string | undefined {
  if (typeof value === 'string' && value.length > 0) return value
  if (typeof value === 'number' || typeof value === 'bigint') return String(value)
  return undefined
}

function withoutUndefined<T extends Record<string, unknown>>(record: T): Partial<T> {
  const out: Partial<T> = {}
  for (const key of Object.keys(record) as (keyof T)[]) if (record[key] !== undefined) out[key] = record[key]
  return out
}

/**
 * The spec's default `profile()`: `id` from `sub` (OIDC) or `id`, `name` from `name` / `nickname` /
 * `preferred_username`, `email`, and `image` from `picture`. Unlike Auth.js it never invents a random id: a profile
 * without one fails the sign-in (OAuthProfileParseError) instead of creating a new account on every sign-in.
 */
export function defaultProfile(profile: Profile): User {
  return withoutUndefined({
    id: profileId(profile.sub) ?? profileId(profile.id),
    name: profile.name ?? profile.nickname ?? profile.preferred_username ?? undefined,
    email: profile.email ?? undefined,
    image: typeof profile.picture === 'string' ? profile.picture : undefined,
  })
}

/** The spec's default `account()`: the token fields worth keeping on the account, nothing else. */
export function defaultAccount(tokens: TokenSet): TokenSet {
  return withoutUndefined({
    access_token: tokens.access_token,
    id_token: tokens.id_token,
    refresh_token: tokens.refresh_token,
    expires_at: tokens.expires_at,
    scope: tokens.scope,
    token_type: tokens.token_type,
    session_state: tokens.session_state,
  })
}
