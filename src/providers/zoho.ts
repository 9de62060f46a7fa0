/**
 * Sign in with Zoho.
 * @module providers/zoho
 */
import { profileId } from '../providers-internal/profile-defaults.js'
import { joinName } from '../providers-internal/names.js'
import type { OAuthConfig, OAuthUserConfig } from '../types/providers.js'

/** The user as Zoho Accounts' `GET /oauth/user/info` returns it. */
export interface ZohoProfile {
  ZUID: number
  First_Name: string
  Last_Name: string
  Display_Name?: string
  Email: string
  [field: string]: unknown
}

/**
 * Zoho as an OAuth 2 provider. For another data centre, override the URLs (e.g. accounts.zoho.eu).
 * @see https://www.zoho.com/accounts/protocol/oauth/web-server-applications.html
 */
export default function Zoho(options: OAuthUserConfig<ZohoProfile> = {}): OAuthConfig<ZohoProfile> {
  return {
    id: 'zoho',
    name: 'Zoho',
    type: 'oauth',
    authorization: { url: 'https://accounts.zoho.com/oauth/v2/auth', params: { scope: 'AaaServer.profile.Read' } },
    token: { url: 'https://accounts.zoho.com/oauth/v2/token' },
    userinfo: { url: 'https://accounts.zoho.com/oauth/user/info' },
    client: { token_endpoint_auth_method: 'client_secret_post' },
    checks: ['state'],
    profile: (profile) => ({
      id: profileId(profile.ZUID),
      name: joinName(profile.First_Name, profile.Last_Name),
      email: profile.Email,
      image: null,
    }),
    style: { brandColor: '#e42527' },
    options,
  }
}
