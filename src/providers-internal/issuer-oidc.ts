/**
 * The shape shared by identity servers that are plain OpenID Connect issuers (Auth0, Authentik, Keycloak, Okta,
 * ZITADEL): endpoints from the issuer's discovery document, the standard claims, one claim that stands in for a
 * missing `name`. Each vendor file keeps its own id, colour and quirks.
 */
import type { ChecksType, OIDCConfig, OIDCUserConfig } from '../types/providers.js'

/** The standard claims these issuers put in an ID token. */
export interface StandardOidcProfile {
  sub: string
  name?: string
  preferred_username?: string
  nickname?: string
  email?: string
  email_verified?: boolean
  picture?: string
  [claim: string]: unknown
}

/** What differs between the issuers. */
export interface IssuerOidcVendor {
  id: string
  name: string
  brandColor: string
  /** The claim used for the display name when `name` is absent. */
  fallbackNameClaim: 'preferred_username' | 'nickname'
  checks?: ChecksType[]
}

/** An issuer-based OIDC provider for `vendor`, with the user's options kept for merging. */
export function issuerOidcProvider<P extends StandardOidcProfile>(
  vendor: IssuerOidcVendor,
  options: OIDCUserConfig<P>,
): OIDCConfig<P> {
  return {
    id: vendor.id,
    name: vendor.name,
    type: 'oidc',
    authorization: { params: { scope: 'openid profile email' } },
    ...(vendor.checks ? { checks: vendor.checks } : {}),
    profile: (profile) => ({
      id: profile.sub,
      name: profile.name ?? profile[vendor.fallbackNameClaim] ?? null,
      email: profile.email ?? null,
      image: profile.picture ?? null,
    }),
    style: { brandColor: vendor.brandColor },
    options,
  }
}
