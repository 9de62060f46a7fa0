/**
 * Sign in with WeChat (Website App QR-code login, or an Official Account inside the WeChat browser).
 * @module providers/wechat
 */
import { bearerWhenUntyped } from '../providers-internal/token-type.js'
import { requestVendorJson, withQuery } from '../providers-internal/vendor-request.js'
import type { OAuthConfig, OAuthConfigInternal, OAuthUserConfig } from '../types/providers.js'
import type { TokenSet } from '../types/index.js'

/** What WeChat's `GET /sns/userinfo` returns. */
export interface WeChatProfile {
  openid: string
  unionid?: string
  nickname: string
  headimgurl: string
  sex?: number
  [field: string]: unknown
}

/** Options of `WeChat()`: the usual ones, plus where the login happens. */
export type WeChatUserConfig = OAuthUserConfig<WeChatProfile> & {
  /** `OfficialAccount` (default): inside WeChat's own browser. `WebsiteApp`: QR code on a website. */
  platformType?: 'WebsiteApp' | 'OfficialAccount'
}

async function fetchUserinfo({
  tokens,
  provider,
}: {
  tokens: TokenSet
  provider: OAuthConfigInternal
}): Promise<unknown> {
  // WeChat: the userinfo call names the token and the user's openid (from the token response) in the query.
  const openid = typeof tokens.openid === 'string' ? tokens.openid : undefined
  return requestVendorJson(
    provider,
    withQuery('https://api.weixin.qq.com/sns/userinfo', { access_token: tokens.access_token, openid, lang: 'zh_CN' }),
  )
}

/**
 * WeChat as an OAuth 2 provider. WeChat gives no e-mail address.
 * @see https://developers.weixin.qq.com/doc/oplatform/en/Website_App/WeChat_Login/Wechat_Login.html
 */
export default function WeChat(options: WeChatUserConfig = {}): OAuthConfig<WeChatProfile> {
  const { platformType = 'OfficialAccount', ...rest } = options
  const website = platformType === 'WebsiteApp'
  // WeChat: the app is named `appid` and its secret `secret`, in the authorization request and the token request.
  const app: Record<string, string> = rest.clientId ? { appid: rest.clientId } : {}
  return {
    id: 'wechat',
    name: 'WeChat',
    type: 'oauth',
    authorization: {
      url: website
        ? 'https://open.weixin.qq.com/connect/qrconnect'
        : 'https://open.weixin.qq.com/connect/oauth2/authorize',
      params: { scope: website ? 'snsapi_login' : 'snsapi_userinfo', ...app },
    },
    token: {
      url: 'https://api.weixin.qq.com/sns/oauth2/access_token',
      params: { ...app, ...(rest.clientSecret ? { secret: rest.clientSecret } : {}) },
      conform: bearerWhenUntyped,
    },
    userinfo: { url: 'https://api.weixin.qq.com/sns/userinfo', request: fetchUserinfo },
    client: { token_endpoint_auth_method: 'client_secret_post' },
    checks: ['state'],
    // WeChat: `unionid` is the same across a developer's apps; `openid` differs per app, so unionid is preferred.
    profile: (profile) => ({
      id: profile.unionid ?? profile.openid,
      name: profile.nickname,
      email: null,
      image: profile.headimgurl,
    }),
    style: { brandColor: '#07c160' },
    options: rest,
  }
}
