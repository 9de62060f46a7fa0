/**
 * Sign in with GitHub (OAuth apps and GitHub Apps, on github.com or GitHub Enterprise Server).
 * @module providers/github
 */
import { requestJsonWithBearer } from '../providers-internal/bearer-request.js'
import { readEndpoint } from '../providers-internal/oauth-endpoint.js'
import { profileId } from '../providers-internal/profile-defaults.js'
import type { OAuthConfig, OAuthConfigInternal, OAuthUserConfig } from '../types/providers.js'
import type { TokenSet } from '../types/index.js'

/** The user as GitHub's `GET /user` returns it (fields Authchart reads, plus whatever else GitHub sends). */
export interface GitHubProfile {
  id: number
  login: string
  name: string | null
  email: string | null
  avatar_url: string
  [field: string]: unknown
}

/** One entry of GitHub's `GET /user/emails`. */
export interface GitHubEmail {
  email: string
  primary: boolean
  verified: boolean
  visibility: 'public' | 'private' | null
}

/** Options of `GitHub()`: the usual provider options, plus the base URL of a GitHub Enterprise Server. */
export type GitHubUserConfig = OAuthUserConfig<GitHubProfile> & { enterprise?: { baseUrl?: string } }

/** The address to use from `/user/emails`: the primary one if verified, else any verified one, else none. */
export function pickGitHubEmail(emails: readonly GitHubEmail[]): string | null {
  const verified = emails.filter((entry) => entry.verified)
  return (verified.find((entry) => entry.primary) ?? verified[0])?.email ?? null
}

async function fetchGitHubUser({
  tokens,
  provider,
}: {
  tokens: TokenSet
  provider: OAuthConfigInternal
}): Promise<GitHubProfile> {
  const userUrl = readEndpoint(provider.userinfo).url ?? 'https://api.github.com/user'
  const user = (await requestJsonWithBearer(provider, userUrl, tokens.access_token)) as GitHubProfile
  // GitHub: `GET /user` shows only the address the user made public; the rest (with the verified flag, which the
  // public field lacks) needs the user:email scope and a second request.
  if (!user.email) {
    const emails = await requestJsonWithBearer(provider, `${userUrl}/emails`, tokens.access_token)
    user.email = Array.isArray(emails) ? pickGitHubEmail(emails as GitHubEmail[]) : null
  }
  return user
}

/**
 * GitHub as an OAuth 2 provider.
 * @param options `clientId`, `clientSecret`; `enterprise.baseUrl` for GitHub Enterprise Server
 * @see https://docs.github.com/en/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps
 */
export default function GitHub(options: GitHubUserConfig = {}): OAuthConfig<GitHubProfile> {
  const baseUrl = (options.enterprise?.baseUrl ?? 'https://github.com').replace(/\/+$/, '')
  // GitHub Enterprise Server serves the REST API under /api/v3 of the instance; github.com has its own API host.
  const apiUrl = options.enterprise?.baseUrl ? `${baseUrl}/api/v3` : 'https://api.github.com'
  return {
    id: 'github',
    name: 'GitHub',
    type: 'oauth',
    // GitHub: the authorization response carries `iss` (RFC 9207) with this value, so it is checked when present.
    issuer: `${baseUrl}/login/oauth`,
    authorization: { url: `${baseUrl}/login/oauth/authorize`, params: { scope: 'read:user user:email' } },
    // GitHub: token errors arrive with status 200 and an `error` member; the token response checks read the body.
    token: { url: `${baseUrl}/login/oauth/access_token` },
    userinfo: { url: `${apiUrl}/user`, request: fetchGitHubUser },
    profile: (profile) => ({
      id: profileId(profile.id),
      name: profile.name ?? profile.login,
      email: profile.email,
      image: profile.avatar_url,
    }),
    style: { brandColor: '#24292f' },
    options,
  }
}
