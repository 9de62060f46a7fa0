/**
 * Sign in with ZITADEL (OpenID Connect).
 * @module providers/zitadel
 */
import { issuerOidcProvider, type StandardOidcProfile } from '../providers-internal/issuer-oidc.js'
import type { OIDCConfig, OIDCUserConfig } from '../types/providers.js'

/** Claims of a ZITADEL ID token. */
export type ZitadelProfile = StandardOidcProfile

/**
 * ZITADEL as an OIDC provider; endpoints come from the issuer's discovery document.
 * @param options `issuer` (required: your instance, e.g. https://example-abc.zitadel.cloud), `clientId`, `clientSecret`
 * @see https://zitadel.com/docs/guides/integrate/login/oidc
 */
export default function Zitadel(options: OIDCUserConfig<ZitadelProfile> = {}): OIDCConfig<ZitadelProfile> {
  // ZITADEL: roles and the organisation arrive in urn:zitadel:iam:* claims, kept on the profile for callbacks.
  return issuerOidcProvider(
    { id: 'zitadel', name: 'ZITADEL', brandColor: '#0d0d0d', fallbackNameClaim: 'preferred_username' },
    options,
  )
}
