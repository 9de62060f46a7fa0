/**
 * Sign in with HubSpot.
 * @module providers/hubspot
 */
import { profileId } from '../providers-internal/profile-defaults.js'
import { requestVendorJson } from '../providers-internal/vendor-request.js'
import type { OAuthConfig, OAuthConfigInternal, OAuthUserConfig } from '../types/providers.js'
import type { TokenSet } from '../types/index.js'

/** What HubSpot's access token metadata endpoint returns about the token's user. */
export interface HubSpotProfile {
  user: string
  user_id: number
  hub_domain?: string
  hub_id: number
  token?: string
  [field: string]: unknown
}

async function fetchTokenMetadata({
  tokens,
  provider,
}: {
  tokens: TokenSet
  provider: OAuthConfigInternal
}): Promise<unknown> {
  // HubSpot: there is no userinfo endpoint; the metadata of the access token (the token in the path) names the user.
  return requestVendorJson(
    provider,
    `https://api.hubapi.com/oauth/v1/access-tokens/${encodeURIComponent(tokens.access_token ?? '')}`,
  )
}

/**
 * HubSpot as an OAuth 2 provider. HubSpot's `user` is the user's e-mail address.
 * @see https://developers.hubspot.com/docs/api/working-with-oauth
 */
export default function HubSpot(options: OAuthUserConfig<HubSpotProfile> = {}): OAuthConfig<HubSpotProfile> {
  return {
    id: 'hubspot',
    name: 'HubSpot',
    type: 'oauth',
    authorization: { url: 'https://app.hubspot.com/oauth/authorize', params: { scope: 'oauth' } },
    token: { url: 'https://api.hubapi.com/oauth/v1/token' },
    userinfo: { url: 'https://api.hubapi.com/oauth/v1/access-tokens', request: fetchTokenMetadata },
    client: { token_endpoint_auth_method: 'client_secret_post' },
    checks: ['state'],
    profile: (profile) => ({ id: profileId(profile.user_id), name: profile.user, email: profile.user, image: null }),
    style: { brandColor: '#ff7a59' },
    options,
  }
}
