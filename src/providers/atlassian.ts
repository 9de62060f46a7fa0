/**
 * Sign in with Atlassian (Jira, Confluence; OAuth 2.0 3LO).
 * @module providers/atlassian
 */
import type { OAuthConfig, OAuthUserConfig } from '../types/providers.js'

/** The user as Atlassian's `GET https://api.atlassian.com/me` returns it. */
export interface AtlassianProfile {
  account_id: string
  name: string
  email: string
  picture: string
  nickname?: string
  [field: string]: unknown
}

/**
 * Atlassian as an OAuth 2 provider. The app needs the User Identity API's `read:me` scope.
 * @see https://developer.atlassian.com/cloud/jira/platform/oauth-2-3lo-apps/
 */
export default function Atlassian(options: OAuthUserConfig<AtlassianProfile> = {}): OAuthConfig<AtlassianProfile> {
  return {
    id: 'atlassian',
    name: 'Atlassian',
    type: 'oauth',
    // Atlassian: the audience must name the API, and prompt=consent makes the consent screen appear.
    authorization: {
      url: 'https://auth.atlassian.com/authorize',
      params: { audience: 'api.atlassian.com', prompt: 'consent', scope: 'read:me' },
    },
    token: { url: 'https://auth.atlassian.com/oauth/token' },
    userinfo: { url: 'https://api.atlassian.com/me' },
    checks: ['state'],
    client: { token_endpoint_auth_method: 'client_secret_post' },
    profile: (profile) => ({
      id: profile.account_id,
      name: profile.name,
      email: profile.email,
      image: profile.picture,
    }),
    style: { brandColor: '#0052cc' },
    options,
  }
}
