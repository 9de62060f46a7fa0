/**
 * Sign in with Azure DevOps (Azure DevOps Services OAuth). Microsoft has deprecated this OAuth for new apps; use
 * `microsoft-entra-id` with the Azure DevOps scope where you can.
 * @module providers/azure-devops
 */
import type { OAuthConfig, OAuthUserConfig } from '../types/providers.js'

/** The profile as `GET /_apis/profile/profiles/me` returns it. */
export interface AzureDevOpsProfile {
  id: string
  displayName: string
  emailAddress: string
  coreAttributes?: { Avatar?: { value?: { value?: string } } }
  [field: string]: unknown
}

/** Options of `AzureDevOps()`: the usual ones, plus the space-separated scopes the app was registered with. */
export type AzureDevOpsUserConfig = OAuthUserConfig<AzureDevOpsProfile> & { scope?: string }

/**
 * Azure DevOps as an OAuth 2 provider. Azure DevOps has its own code exchange: the browser is sent with
 * `response_type=Assertion`, and the code comes back as the `assertion` of a JWT-bearer grant whose
 * `client_assertion` is the client secret (`codeGrant: "jwt-bearer-assertion"`).
 * @param options `clientId` (the app id), `clientSecret` (the client secret), `scope` (default `vso.profile`)
 * @see https://learn.microsoft.com/en-us/azure/devops/integrate/get-started/authentication/oauth
 */
export default function AzureDevOps(options: AzureDevOpsUserConfig = {}): OAuthConfig<AzureDevOpsProfile> {
  const { scope = 'vso.profile', ...rest } = options
  return {
    id: 'azure-devops',
    name: 'Azure DevOps',
    type: 'oauth',
    authorization: {
      url: 'https://app.vssps.visualstudio.com/oauth2/authorize',
      params: { scope, response_type: 'Assertion' },
    },
    token: { url: 'https://app.vssps.visualstudio.com/oauth2/token' },
    userinfo: {
      url: 'https://app.vssps.visualstudio.com/_apis/profile/profiles/me',
      params: { details: 'true', coreAttributes: 'Avatar', 'api-version': '6.0' },
    },
    checks: ['state'],
    codeGrant: 'jwt-bearer-assertion',
    profile: (profile) => {
      const avatar = profile.coreAttributes?.Avatar?.value?.value
      return {
        id: profile.id,
        name: profile.displayName,
        email: profile.emailAddress,
        image: avatar ? `data:image/jpeg;base64,${avatar}` : null,
      }
    },
    style: { brandColor: '#0078d4' },
    options: rest,
  }
}
