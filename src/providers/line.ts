/**
 * Sign in with LINE (LINE Login v2.1, OpenID Connect).
 * @module providers/line
 */
import type { OIDCConfig, OIDCUserConfig } from '../types/providers.js'

/** Claims of a LINE ID token. */
export interface LineProfile {
  iss: string
  sub: string
  aud: string
  name?: string
  picture?: string
  email?: string
  amr?: string[]
  [claim: string]: unknown
}

/**
 * LINE as an OIDC provider. The e-mail claim needs the `email` scope and LINE's permission for your channel.
 * @see https://developers.line.biz/en/docs/line-login/integrate-line-login/
 */
export default function LINE(options: OIDCUserConfig<LineProfile> = {}): OIDCConfig<LineProfile> {
  return {
    id: 'line',
    name: 'LINE',
    type: 'oidc',
    issuer: 'https://access.line.me',
    // Auth.js's default scope (`email` needs the channel's e-mail permission, as it does under Auth.js).
    authorization: { params: { scope: 'openid profile email' } },
    // LINE: the web login's ID token is an HS256 JWT keyed with the channel secret, and the token endpoint takes the
    // secret in the form body.
    client: { id_token_signed_response_alg: 'HS256', token_endpoint_auth_method: 'client_secret_post' },
    checks: ['state'],
    profile: (profile) => ({
      id: profile.sub,
      name: profile.name ?? null,
      email: profile.email ?? null,
      image: profile.picture ?? null,
    }),
    style: { brandColor: '#00c300' },
    options,
  }
}
