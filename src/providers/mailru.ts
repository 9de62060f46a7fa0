/**
 * Sign in with Mail.ru (VK ID's Mail.ru accounts).
 * @module providers/mailru
 */
import { requestVendorJson, withQuery } from '../providers-internal/vendor-request.js'
import type { OAuthConfig, OAuthConfigInternal, OAuthUserConfig } from '../types/providers.js'
import type { TokenSet } from '../types/index.js'

/** What Mail.ru's `GET /userinfo` returns. */
export interface MailRuProfile {
  id: string
  name: string
  email: string
  image?: string
  nickname?: string
  first_name?: string
  last_name?: string
  [field: string]: unknown
}

async function fetchUserinfo({
  tokens,
  provider,
}: {
  tokens: TokenSet
  provider: OAuthConfigInternal
}): Promise<unknown> {
  // Mail.ru: the userinfo endpoint takes the token as `access_token` in the query, not as a bearer header.
  return requestVendorJson(provider, withQuery('https://oauth.mail.ru/userinfo', { access_token: tokens.access_token }))
}

/**
 * Mail.ru as an OAuth 2 provider.
 * @see https://oauth.mail.ru/docs
 */
export default function MailRu(options: OAuthUserConfig<MailRuProfile> = {}): OAuthConfig<MailRuProfile> {
  return {
    id: 'mailru',
    name: 'Mail.ru',
    type: 'oauth',
    authorization: { url: 'https://oauth.mail.ru/login', params: { scope: 'userinfo' } },
    token: { url: 'https://oauth.mail.ru/token' },
    userinfo: { url: 'https://oauth.mail.ru/userinfo', request: fetchUserinfo },
    checks: ['state'],
    profile: (profile) => ({ id: profile.id, name: profile.name, email: profile.email, image: profile.image ?? null }),
    style: { brandColor: '#005ff9' },
    options,
  }
}
