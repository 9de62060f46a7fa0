/**
 * Sign in with Coinbase.
 * @module providers/coinbase
 */
import type { OAuthConfig, OAuthUserConfig } from '../types/providers.js'

/** What Coinbase's `GET /v2/user` returns: the user under `data`. */
export interface CoinbaseProfile {
  data: {
    id: string
    name: string
    username?: string | null
    email?: string
    avatar_url: string
    [field: string]: unknown
  }
  [field: string]: unknown
}

/**
 * Coinbase as an OAuth 2 provider. The e-mail address needs the `wallet:user:email` scope.
 * @see https://docs.cdp.coinbase.com/coinbase-app/docs/coinbase-app-integration
 */
export default function Coinbase(options: OAuthUserConfig<CoinbaseProfile> = {}): OAuthConfig<CoinbaseProfile> {
  return {
    id: 'coinbase',
    name: 'Coinbase',
    type: 'oauth',
    authorization: {
      url: 'https://login.coinbase.com/oauth2/auth',
      params: { scope: 'wallet:user:email wallet:user:read' },
    },
    token: { url: 'https://login.coinbase.com/oauth2/token' },
    userinfo: { url: 'https://api.coinbase.com/v2/user' },
    client: { token_endpoint_auth_method: 'client_secret_post' },
    profile: ({ data }) => ({ id: data.id, name: data.name, email: data.email ?? null, image: data.avatar_url }),
    style: { brandColor: '#0052ff' },
    options,
  }
}
