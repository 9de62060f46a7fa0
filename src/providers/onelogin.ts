/**
 * Sign in with OneLogin (OpenID Connect).
 * @module providers/onelogin
 */
import { issuerOidcProvider, type StandardOidcProfile } from '../providers-internal/issuer-oidc.js'
import { trimSlash } from '../providers-internal/names.js'
import type { OIDCConfig, OIDCUserConfig } from '../types/providers.js'

/** Claims of a OneLogin ID token. */
export type OneLoginProfile = StandardOidcProfile

/**
 * OneLogin as an OIDC provider.
 * @param options `issuer` (required: `https://<subdomain>.onelogin.com`, as in Auth.js; the `/oidc/2` that OneLogin's
 *   tokens carry is added when missing), `clientId`, `clientSecret`
 * @see https://developers.onelogin.com/openid-connect
 */
export default function OneLogin(options: OIDCUserConfig<OneLoginProfile> = {}): OIDCConfig<OneLoginProfile> {
  const issuer =
    options.issuer && !trimSlash(options.issuer).endsWith('/oidc/2')
      ? `${trimSlash(options.issuer)}/oidc/2`
      : options.issuer
  return issuerOidcProvider(
    { id: 'onelogin', name: 'OneLogin', brandColor: '#1c1f2a', fallbackNameClaim: 'nickname' },
    { ...options, ...(issuer ? { issuer } : {}) },
  )
}
