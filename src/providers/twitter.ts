/**
 * Sign in with X (Twitter), OAuth 2.0 with PKCE.
 * @module providers/twitter
 */
import { InvalidProvider } from '../errors.js'
import type { OAuthConfig, OAuthUserConfig } from '../types/providers.js'

/** The microblog profile: `GET /2/users/me`, with the user under `data` and expansions under `includes`. */
export interface TwitterProfile {
  data: {
    id: string
    name: string
    username: string
    /** X: e-mail addresses are not available through OAuth 2.0. */
    email?: string
    created_at?: string
    description?: string
    location?: string
    pinned_tweet_id?: string
    profile_image_url?: string
    protected?: boolean
    url?: string
    verified?: boolean
    entities?: {
      description?: { hashtags?: { start: number; end: number; tag: string }[] }
      url?: { urls?: { start: number; end: number; url: string; display_url: string; expanded_url: string }[] }
    }
  }
  includes?: { tweets?: { id: string; text: string }[] }
  [field: string]: unknown
}

/** Options of `Twitter()`. `version: "2.0"` is accepted for Auth.js compatibility; OAuth 1.0a is not supported. */
export type TwitterUserConfig = OAuthUserConfig<TwitterProfile> & { version?: string }

/**
 * X (Twitter) as an OAuth 2 provider. More profile fields come from `userinfo.params`, e.g.
 * `{ 'user.fields': 'profile_image_url,description,pinned_tweet_id', expansions: 'pinned_tweet_id' }` (the pinned post
 * then arrives in `includes.tweets`).
 * @throws InvalidProvider for `version` other than "2.0" (OAuth 1.0a is not implemented)
 * @see https://docs.x.com/fundamentals/authentication/oauth-2-0/authorization-code
 */
export default function Twitter(options: TwitterUserConfig = {}): OAuthConfig<TwitterProfile> {
  if (options.version !== undefined && options.version !== '2.0') {
    throw new InvalidProvider(
      `provider "twitter": version "${options.version}" (OAuth 1.0a) is not supported; use "2.0"`,
      { check: 'config', field: 'version' },
    )
  }
  return {
    id: 'twitter',
    name: 'Twitter',
    type: 'oauth',
    // URL strings, as Auth.js writes them; option merging reads the query into params all the same.
    authorization: 'https://x.com/i/oauth2/authorize?scope=users.read+tweet.read+offline.access',
    token: 'https://api.x.com/2/oauth2/token',
    // X: profile fields beyond id, name and username must be asked for with `user.fields`.
    userinfo: 'https://api.x.com/2/users/me?user.fields=profile_image_url',
    // X: the authorization request is rejected without a state parameter.
    checks: ['pkce', 'state'],
    profile: ({ data }) => ({
      id: data.id,
      name: data.name,
      email: data.email ?? null,
      image: data.profile_image_url ?? null,
    }),
    style: { brandColor: '#000000' },
    options,
  }
}
