/**
 * Sign in with Wikimedia (Wikipedia and the other Wikimedia projects' global accounts).
 * @module providers/wikimedia
 */
import { profileId } from '../providers-internal/profile-defaults.js'
import type { OAuthConfig, OAuthUserConfig } from '../types/providers.js'

/** The user as Wikimedia's OAuth 2 `resource/profile` returns it. */
export interface WikimediaProfile {
  sub: string | number
  username: string
  email?: string
  confirmed_email?: boolean
  editcount?: number
  groups?: string[]
  [field: string]: unknown
}

/**
 * Wikimedia as an OAuth 2 provider (Meta-Wiki's OAuth 2 endpoints). The e-mail address needs the consumer's
 * "access the user's real name and e-mail address" grant.
 * @see https://www.mediawiki.org/wiki/Extension:OAuth#OAuth_2
 */
export default function Wikimedia(options: OAuthUserConfig<WikimediaProfile> = {}): OAuthConfig<WikimediaProfile> {
  return {
    id: 'wikimedia',
    name: 'Wikimedia',
    type: 'oauth',
    authorization: { url: 'https://meta.wikimedia.org/w/rest.php/oauth2/authorize' },
    token: { url: 'https://meta.wikimedia.org/w/rest.php/oauth2/access_token' },
    userinfo: { url: 'https://meta.wikimedia.org/w/rest.php/oauth2/resource/profile' },
    client: { token_endpoint_auth_method: 'client_secret_post' },
    checks: ['state'],
    profile: (profile) => ({
      id: profileId(profile.sub),
      name: profile.username,
      email: profile.email ?? null,
      image: null,
    }),
    style: { brandColor: '#000000' },
    options,
  }
}
