/**
 * Sign in with Bungie.net (Destiny).
 * @module providers/bungie
 */
import { requestJsonWithBearer } from '../providers-internal/bearer-request.js'
import type { OAuthConfig, OAuthConfigInternal, OAuthUserConfig } from '../types/providers.js'
import type { TokenSet } from '../types/index.js'
import { scalarText } from '../security/scalar-text.js'

/** What Bungie's `User/GetBungieAccount` returns: the account under `Response`. */
export interface BungieProfile {
  Response: {
    bungieNetUser: { membershipId: string; displayName: string; uniqueName?: string; profilePicturePath?: string }
  }
  [field: string]: unknown
}

/** Options of `Bungie()`: the usual ones, plus the API key of your Bungie application (sent as X-API-Key). */
export type BungieUserConfig = OAuthUserConfig<BungieProfile> & { apiKey?: string }

/**
 * Bungie as an OAuth 2 provider. Bungie gives no e-mail address.
 * @see https://github.com/Bungie-net/api/wiki/OAuth-Documentation
 */
export default function Bungie(options: BungieUserConfig = {}): OAuthConfig<BungieProfile> {
  const { apiKey, ...rest } = options
  async function fetchAccount({
    tokens,
    provider,
  }: {
    tokens: TokenSet
    provider: OAuthConfigInternal
  }): Promise<BungieProfile> {
    // Bungie: the token response names the member; every API call also needs the application's API key.
    const membershipId = encodeURIComponent(scalarText(tokens.membership_id))
    const url = `https://www.bungie.net/Platform/User/GetBungieAccount/${membershipId}/254/`
    return (await requestJsonWithBearer(provider, url, tokens.access_token, {
      headers: apiKey ? { 'x-api-key': apiKey } : {},
    })) as BungieProfile
  }
  return {
    id: 'bungie',
    name: 'Bungie',
    type: 'oauth',
    authorization: { url: 'https://www.bungie.net/en/OAuth/Authorize', params: { reauth: 'true' } },
    token: { url: 'https://www.bungie.net/Platform/App/OAuth/token/' },
    userinfo: { url: 'https://www.bungie.net/Platform/User/GetBungieAccount/', request: fetchAccount },
    client: { token_endpoint_auth_method: 'client_secret_post' },
    checks: ['state'],
    profile: ({ Response: { bungieNetUser: user } }) => ({
      id: user.membershipId,
      name: user.displayName,
      email: null,
      image: user.profilePicturePath ? new URL(user.profilePicturePath, 'https://www.bungie.net/').href : null,
    }),
    style: { brandColor: '#000000' },
    options: rest,
  }
}
