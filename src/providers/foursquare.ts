/**
 * Sign in with Foursquare (Swarm accounts).
 * @module providers/foursquare
 */
import { joinName } from '../providers-internal/names.js'
import { bearerWhenUntyped } from '../providers-internal/token-type.js'
import { requestVendorJson, withQuery } from '../providers-internal/vendor-request.js'
import type { OAuthConfig, OAuthConfigInternal, OAuthUserConfig } from '../types/providers.js'
import type { TokenSet } from '../types/index.js'

/** What Foursquare's `GET /v2/users/self` returns: the user under `response.user`. */
export interface FoursquareProfile {
  response: {
    user: {
      id: string
      firstName: string
      lastName?: string
      contact?: { email?: string }
      photo?: { prefix: string; suffix: string }
    }
  }
  [field: string]: unknown
}

/** Options of `Foursquare()`: the usual ones, plus the API version date Foursquare requires on every call. */
export type FoursquareUserConfig = OAuthUserConfig<FoursquareProfile> & { apiVersion?: string }

/**
 * Foursquare as an OAuth 2 provider.
 * @see https://docs.foursquare.com/developer/reference/personalization-apis-authentication
 */
export default function Foursquare(options: FoursquareUserConfig = {}): OAuthConfig<FoursquareProfile> {
  const { apiVersion = '20230131', ...rest } = options
  async function fetchSelf({
    tokens,
    provider,
  }: {
    tokens: TokenSet
    provider: OAuthConfigInternal
  }): Promise<unknown> {
    // Foursquare: the v2 API takes the token as `oauth_token` in the query, and a `v` version date.
    const url = withQuery('https://api.foursquare.com/v2/users/self', {
      v: apiVersion,
      oauth_token: tokens.access_token,
    })
    return requestVendorJson(provider, url)
  }
  return {
    id: 'foursquare',
    name: 'Foursquare',
    type: 'oauth',
    authorization: { url: 'https://foursquare.com/oauth2/authenticate' },
    token: { url: 'https://foursquare.com/oauth2/access_token', conform: bearerWhenUntyped },
    userinfo: { url: 'https://api.foursquare.com/v2/users/self', request: fetchSelf },
    client: { token_endpoint_auth_method: 'client_secret_post' },
    checks: ['state'],
    profile: ({ response: { user } }) => ({
      id: user.id,
      name: joinName(user.firstName, user.lastName),
      email: user.contact?.email ?? null,
      image: user.photo ? `${user.photo.prefix}original${user.photo.suffix}` : null,
    }),
    style: { brandColor: '#000000' },
    options: rest,
  }
}
