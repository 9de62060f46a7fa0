/**
 * Sign in with Dropbox.
 * @module providers/dropbox
 */
import { requestJsonWithBearer } from '../providers-internal/bearer-request.js'
import { readEndpoint } from '../providers-internal/oauth-endpoint.js'
import type { OAuthConfig, OAuthConfigInternal, OAuthUserConfig } from '../types/providers.js'
import type { TokenSet } from '../types/index.js'

/** The account as Dropbox's `users/get_current_account` returns it. */
export interface DropboxProfile {
  account_id: string
  name: { display_name: string; given_name?: string; surname?: string }
  email: string
  email_verified: boolean
  profile_photo_url?: string
  [field: string]: unknown
}

async function fetchDropboxAccount({
  tokens,
  provider,
}: {
  tokens: TokenSet
  provider: OAuthConfigInternal
}): Promise<DropboxProfile> {
  const url = readEndpoint(provider.userinfo).url ?? 'https://api.dropboxapi.com/2/users/get_current_account'
  // Dropbox: API v2 "RPC" endpoints are POST-only, and a call without arguments must send no body at all.
  return (await requestJsonWithBearer(provider, url, tokens.access_token, { method: 'POST' })) as DropboxProfile
}

/**
 * Dropbox as an OAuth 2 provider; asks for an offline (refreshable) token.
 * @see https://developers.dropbox.com/oauth-guide
 */
export default function Dropbox(options: OAuthUserConfig<DropboxProfile> = {}): OAuthConfig<DropboxProfile> {
  return {
    id: 'dropbox',
    name: 'Dropbox',
    type: 'oauth',
    authorization: {
      url: 'https://www.dropbox.com/oauth2/authorize',
      params: { token_access_type: 'offline', scope: 'account_info.read' },
    },
    token: 'https://api.dropboxapi.com/oauth2/token',
    userinfo: { url: 'https://api.dropboxapi.com/2/users/get_current_account', request: fetchDropboxAccount },
    profile: (profile) => ({
      id: profile.account_id,
      name: profile.name.display_name,
      // Dropbox: an unverified address is not offered to account linking.
      email: profile.email_verified ? profile.email : null,
      image: profile.profile_photo_url ?? null,
    }),
    style: { brandColor: '#0061fe' },
    options,
  }
}
