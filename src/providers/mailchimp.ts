/**
 * Sign in with Mailchimp (Intuit Mailchimp Marketing accounts).
 * @module providers/mailchimp
 */
import { profileId } from '../providers-internal/profile-defaults.js'
import type { OAuthConfig, OAuthUserConfig } from '../types/providers.js'

/** What Mailchimp's `GET /oauth2/metadata` returns about the account behind the token. */
export interface MailchimpProfile {
  dc: string
  accountname: string
  login: { login_id: number; login_name: string; login_email: string; email?: string; avatar?: string | null }
  api_endpoint?: string
  [field: string]: unknown
}

/**
 * Mailchimp as an OAuth 2 provider.
 * @see https://mailchimp.com/developer/marketing/guides/access-user-data-oauth-2/
 */
export default function Mailchimp(options: OAuthUserConfig<MailchimpProfile> = {}): OAuthConfig<MailchimpProfile> {
  return {
    id: 'mailchimp',
    name: 'Mailchimp',
    type: 'oauth',
    authorization: { url: 'https://login.mailchimp.com/oauth2/authorize' },
    token: { url: 'https://login.mailchimp.com/oauth2/token' },
    // Mailchimp: the metadata endpoint also names the data centre (`dc`) the account's API lives in.
    userinfo: { url: 'https://login.mailchimp.com/oauth2/metadata' },
    client: { token_endpoint_auth_method: 'client_secret_post' },
    checks: ['state'],
    profile: (profile) => ({
      id: profileId(profile.login.login_id),
      name: profile.accountname,
      email: profile.login.email ?? profile.login.login_email ?? null,
      image: profile.login.avatar ?? null,
    }),
    style: { brandColor: '#ffe01b' },
    options,
  }
}
