/**
 * Sign in with Azure Active Directory, the former name of Microsoft Entra ID. Kept for apps written against Auth.js's
 * `azure-ad` provider: the same flow as `microsoft-entra-id` under the old id, so existing accounts keep matching.
 * @module providers/azure-ad
 */
import MicrosoftEntraID, {
  type MicrosoftEntraIDProfile,
  type MicrosoftEntraIDUserConfig,
} from './microsoft-entra-id.js'
import type { OIDCConfig } from '../types/providers.js'

/** Claims of an Azure AD v2.0 ID token. */
export type AzureADProfile = MicrosoftEntraIDProfile

/**
 * Azure AD as an OIDC provider (prefer `microsoft-entra-id` in new apps).
 * @param options `tenantId` (default `common`), `clientId`, `clientSecret`, `profilePhotoSize`
 * @see https://learn.microsoft.com/en-us/entra/identity-platform/v2-protocols-oidc
 */
export default function AzureAD(options: MicrosoftEntraIDUserConfig = {}): OIDCConfig<AzureADProfile> {
  return { ...MicrosoftEntraID(options), id: 'azure-ad', name: 'Azure Active Directory' }
}
