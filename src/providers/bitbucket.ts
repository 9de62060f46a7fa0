/**
 * Sign in with Bitbucket Cloud.
 * @module providers/bitbucket
 */
import { requestJsonWithBearer } from '../providers-internal/bearer-request.js'
import { readEndpoint } from '../providers-internal/oauth-endpoint.js'
import type { OAuthConfig, OAuthConfigInternal, OAuthUserConfig } from '../types/providers.js'
import type { TokenSet } from '../types/index.js'

/** The user as Bitbucket's `GET /2.0/user` returns it, with `email` added from `/2.0/user/emails`. */
export interface BitbucketProfile {
  account_id: string
  uuid: string
  username?: string
  nickname?: string
  display_name: string
  links: { avatar: { href: string } }
  email?: string | null
  [field: string]: unknown
}

interface BitbucketEmail {
  email: string
  is_primary: boolean
  is_confirmed: boolean
}

async function fetchBitbucketUser({
  tokens,
  provider,
}: {
  tokens: TokenSet
  provider: OAuthConfigInternal
}): Promise<BitbucketProfile> {
  const userUrl = readEndpoint(provider.userinfo).url ?? 'https://api.bitbucket.org/2.0/user'
  const user = (await requestJsonWithBearer(provider, userUrl, tokens.access_token)) as BitbucketProfile
  // Bitbucket: the user resource has no address; the `email` scope opens a separate paged list of them.
  const emails = (await requestJsonWithBearer(provider, `${userUrl}/emails`, tokens.access_token)) as {
    values?: BitbucketEmail[]
  }
  const confirmed = (emails.values ?? []).filter((entry) => entry.is_confirmed)
  user.email = (confirmed.find((entry) => entry.is_primary) ?? confirmed[0])?.email ?? null
  return user
}

/**
 * Bitbucket as an OAuth 2 provider.
 * @see https://developer.atlassian.com/cloud/bitbucket/oauth-2/
 */
export default function Bitbucket(options: OAuthUserConfig<BitbucketProfile> = {}): OAuthConfig<BitbucketProfile> {
  return {
    id: 'bitbucket',
    name: 'Bitbucket',
    type: 'oauth',
    authorization: { url: 'https://bitbucket.org/site/oauth2/authorize', params: { scope: 'account email' } },
    token: { url: 'https://bitbucket.org/site/oauth2/access_token' },
    userinfo: { url: 'https://api.bitbucket.org/2.0/user', request: fetchBitbucketUser },
    profile: (profile) => ({
      id: profile.account_id,
      name: profile.display_name ?? profile.username ?? null,
      email: profile.email ?? null,
      image: profile.links.avatar.href,
    }),
    style: { brandColor: '#205081' },
    options,
  }
}
