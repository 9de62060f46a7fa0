/** The data models every part shares: the user, the provider's profile and tokens, the account linking them. */

/** A value or a promise of it. */
export type Awaitable<T> = T | PromiseLike<T>

/** Identity provider claims, indexable by any claim name. */
export interface Profile {
  id?: string | null
  sub?: string | null
  name?: string | null
  given_name?: string | null
  family_name?: string | null
  middle_name?: string | null
  nickname?: string | null
  preferred_username?: string | null
  profile?: string | null
  picture?: unknown
  website?: string | null
  email?: string | null
  email_verified?: boolean | null
  gender?: string | null
  birthdate?: string | null
  zoneinfo?: string | null
  locale?: string | null
  phone_number?: string | null
  updated_at?: Date | string | number | null
  address?: {
    formatted?: string | null
    street_address?: string | null
    locality?: string | null
    region?: string | null
    postal_code?: string | null
    country?: string | null
  } | null
  [claim: string]: unknown
}

/** The user as the app sees it. */
export interface User {
  id?: string
  name?: string | null
  email?: string | null
  image?: string | null
}

/** RFC 9396 authorization details, kept opaque. */
export interface AuthorizationDetails {
  type: string
  [key: string]: unknown
}

/** A partial token-endpoint response plus `expires_at` (epoch seconds). */
export interface TokenSet {
  access_token?: string
  token_type?: Lowercase<string>
  id_token?: string
  refresh_token?: string
  scope?: string
  expires_in?: number
  expires_at?: number
  authorization_details?: AuthorizationDetails[]
  [key: string]: unknown
}

/** The kinds of provider. */
export type ProviderType = 'oidc' | 'oauth' | 'email' | 'credentials' | 'webauthn'

/** The provider types `signIn()` may answer without sending the browser to another site (the spec's list). */
export type RedirectableProviderType = 'email' | 'credentials'

/** A version as `v<major>`, `v<major>.<minor>` or `v<major>.<minor>.<patch>` (the spec's `SemverString`). */
export type SemverString = `v${number}` | `v${number}.${number}` | `v${number}.${number}.${number}`

/** Connects a user with a provider. */
export interface Account extends TokenSet {
  provider: string
  providerAccountId: string
  type: ProviderType
  userId?: string
}
