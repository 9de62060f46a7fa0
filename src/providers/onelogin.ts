/**
 * Sign in with OneLogin (OpenID Connect).
 * @module providers/onelogin
 */
import { issuerOidcProvider, type StandardOidcProfile } from './issuer-oidc.js'
import type { OIDCConfig, OIDCUserConfig } from './provider-types.js'

/** Claims of a OneLogin ID token. */
export type OneLoginProfile = StandardOidcProfile

/**
 * OneLogin as an OIDC provider.
 * @param options `issuer` (required: `https://<subdomain>.onelogin.com/oidc/2`), `clientId`, `clientSecret`
 * @see https://developers.onelogin.com/openid-connect
 */
export default function OneLogin(options: OIDCUserConfig<OneLoginProfile> = {}): OIDCConfig<OneLoginProfile> {
  return issuerOidcProvider({ id: 'onelogin', name: 'OneLogin', brandColor: '#1c1f2a', fallbackNameClaim: 'nickname' }, options)
}
