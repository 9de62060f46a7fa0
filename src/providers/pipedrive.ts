/**
 * Sign in with Pipedrive.
 * @module providers/pipedrive
 */
import { profileId } from '../providers-internal/profile-defaults.js'
import type { OAuthConfig, OAuthUserConfig } from '../types/providers.js'

/** What Pipedrive's `GET /v1/users/me` returns: the user under `data`. */
export interface PipedriveProfile {
  success: boolean
  data: {
    id: number
    name: string
    email: string
    icon_url: string | null
    company_id?: number
    [field: string]: unknown
  }
  [field: string]: unknown
}

/**
 * Pipedrive as an OAuth 2 provider.
 * @see https://pipedrive.readme.io/docs/marketplace-oauth-authorization
 */
export default function Pipedrive(options: OAuthUserConfig<PipedriveProfile> = {}): OAuthConfig<PipedriveProfile> {
  return {
    id: 'pipedrive',
    name: 'Pipedrive',
    type: 'oauth',
    authorization: { url: 'https://oauth.pipedrive.com/oauth/authorize' },
    token: { url: 'https://oauth.pipedrive.com/oauth/token' },
    userinfo: { url: 'https://api.pipedrive.com/v1/users/me' },
    checks: ['state'],
    profile: ({ data }) => ({ id: profileId(data.id), name: data.name, email: data.email, image: data.icon_url }),
    style: { brandColor: '#017737' },
    options,
  }
}
