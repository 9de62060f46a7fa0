/**
 * Where each vendor's endpoints are, as its documentation (and Auth.js's provider) gives them: the authorization,
 * token and userinfo URLs of plain OAuth 2 vendors, the issuer of OIDC vendors (for vendors hosted per customer,
 * the issuer of the sample configuration in vendor-samples.ts). The conformance test serves the vendor only at these
 * URLs, so a provider calling anything else fails.
 */
export type VendorEndpoints =
  | { issuer: string }
  | {
      authorization: string
      token: string
      userinfo: string
      /**
       * A vendor whose code exchange is not RFC 6749's: Azure DevOps documents `response_type=Assertion` and a
       * JWT-bearer token request carrying the code as `assertion` and the client secret as `client_assertion`.
       */
      codeGrant?: 'jwt-bearer-assertion'
    }

export const vendorEndpoints: Record<string, VendorEndpoints> = {
  '42-school': {
    authorization: 'https://api.intra.42.fr/oauth/authorize',
    token: 'https://api.intra.42.fr/oauth/token',
    userinfo: 'https://api.intra.42.fr/v2/me',
  },
  apple: { issuer: 'https://appleid.apple.com' },
  asgardeo: { issuer: 'https://api.asgardeo.io/t/acme/oauth2/token' },
  atlassian: {
    authorization: 'https://auth.atlassian.com/authorize',
    token: 'https://auth.atlassian.com/oauth/token',
    userinfo: 'https://api.atlassian.com/me',
  },
  auth0: { issuer: 'https://tenant.eu.auth0.test/' },
  authentik: { issuer: 'https://auth.example.test/application/o/my-app/' },
  'azure-ad-b2c': { issuer: 'https://contoso.b2clogin.test/775527ff-9a37-4307-8b3d-cc311f58d925/v2.0/' },
  'azure-ad': { issuer: 'https://login.microsoftonline.com/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0' },
  'azure-devops': {
    authorization: 'https://app.vssps.visualstudio.com/oauth2/authorize',
    token: 'https://app.vssps.visualstudio.com/oauth2/token',
    userinfo: 'https://app.vssps.visualstudio.com/_apis/profile/profiles/me',
    codeGrant: 'jwt-bearer-assertion',
  },
  'bankid-no': { issuer: 'https://auth.bankid.no/auth/realms/prod' },
  battlenet: { issuer: 'https://oauth.battle.net' },
  beyondidentity: { issuer: 'https://auth-us.beyondidentity.test/v1/tenants/t1/realms/r1/applications/a1' },
  bitbucket: {
    authorization: 'https://bitbucket.org/site/oauth2/authorize',
    token: 'https://bitbucket.org/site/oauth2/access_token',
    userinfo: 'https://api.bitbucket.org/2.0/user',
  },
  box: {
    authorization: 'https://account.box.com/api/oauth2/authorize',
    token: 'https://api.box.com/oauth2/token',
    userinfo: 'https://api.box.com/2.0/users/me',
  },
  'boxyhq-saml': {
    authorization: 'https://jackson.example.test/api/oauth/authorize',
    token: 'https://jackson.example.test/api/oauth/token',
    userinfo: 'https://jackson.example.test/api/oauth/userinfo',
  },
  bungie: {
    authorization: 'https://www.bungie.net/en/OAuth/Authorize',
    token: 'https://www.bungie.net/Platform/App/OAuth/token/',
    userinfo: 'https://www.bungie.net/Platform/User/GetBungieAccount/',
  },
  'click-up': {
    authorization: 'https://app.clickup.com/api',
    token: 'https://api.clickup.com/api/v2/oauth/token',
    userinfo: 'https://api.clickup.com/api/v2/user',
  },
  cognito: { issuer: 'https://cognito-idp.eu-west-1.amazonaws.test/eu-west-1_AbCdEf' },
  coinbase: {
    authorization: 'https://login.coinbase.com/oauth2/auth',
    token: 'https://login.coinbase.com/oauth2/token',
    userinfo: 'https://api.coinbase.com/v2/user',
  },
  concept2: {
    authorization: 'https://log.concept2.com/oauth/authorize',
    token: 'https://log.concept2.com/oauth/access_token',
    userinfo: 'https://log.concept2.com/api/users/me',
  },
  descope: { issuer: 'https://api.descope.test/P2abcDescopeProject' },
  discord: {
    authorization: 'https://discord.com/api/oauth2/authorize',
    token: 'https://discord.com/api/oauth2/token',
    userinfo: 'https://discord.com/api/users/@me',
  },
  dribbble: {
    authorization: 'https://dribbble.com/oauth/authorize',
    token: 'https://dribbble.com/oauth/token',
    userinfo: 'https://api.dribbble.com/v2/user',
  },
  dropbox: {
    authorization: 'https://www.dropbox.com/oauth2/authorize',
    token: 'https://api.dropboxapi.com/oauth2/token',
    userinfo: 'https://api.dropboxapi.com/2/users/get_current_account',
  },
  'duende-identity-server6': { issuer: 'https://demo.duendesoftware.test' },
  eventbrite: {
    authorization: 'https://www.eventbrite.com/oauth/authorize',
    token: 'https://www.eventbrite.com/oauth/token',
    userinfo: 'https://www.eventbriteapi.com/v3/users/me/',
  },
  eveonline: {
    authorization: 'https://login.eveonline.com/v2/oauth/authorize',
    token: 'https://login.eveonline.com/v2/oauth/token',
    userinfo: 'https://login.eveonline.com/oauth/verify',
  },
  facebook: {
    authorization: 'https://www.facebook.com/v19.0/dialog/oauth',
    token: 'https://graph.facebook.com/oauth/access_token',
    userinfo: 'https://graph.facebook.com/me',
  },
  faceit: {
    authorization: 'https://accounts.faceit.com/accounts',
    token: 'https://api.faceit.com/auth/v1/oauth/token',
    userinfo: 'https://api.faceit.com/auth/v1/resources/userinfo',
  },
  figma: {
    authorization: 'https://www.figma.com/oauth',
    token: 'https://api.figma.com/v1/oauth/token',
    userinfo: 'https://api.figma.com/v1/me',
  },
  foursquare: {
    authorization: 'https://foursquare.com/oauth2/authenticate',
    token: 'https://foursquare.com/oauth2/access_token',
    userinfo: 'https://api.foursquare.com/v2/users/self',
  },
  freshbooks: {
    authorization: 'https://auth.freshbooks.com/service/auth/oauth/authorize',
    token: 'https://api.freshbooks.com/auth/oauth/token',
    userinfo: 'https://api.freshbooks.com/auth/api/v1/users/me',
  },
  frontegg: { issuer: 'https://app-xyz.frontegg.test' },
  fusionauth: { issuer: 'https://login.piedpiper.test' },
  github: {
    authorization: 'https://github.com/login/oauth/authorize',
    token: 'https://github.com/login/oauth/access_token',
    userinfo: 'https://api.github.com/user',
  },
  gitlab: {
    authorization: 'https://gitlab.com/oauth/authorize',
    token: 'https://gitlab.com/oauth/token',
    userinfo: 'https://gitlab.com/api/v4/user',
  },
  google: { issuer: 'https://accounts.google.com' },
  hubspot: {
    authorization: 'https://app.hubspot.com/oauth/authorize',
    token: 'https://api.hubapi.com/oauth/v1/token',
    userinfo: 'https://api.hubapi.com/oauth/v1/access-tokens',
  },
  huggingface: { issuer: 'https://huggingface.co' },
  'identity-server4': { issuer: 'https://demo.identityserver.test' },
  instagram: {
    authorization: 'https://api.instagram.com/oauth/authorize',
    token: 'https://api.instagram.com/oauth/access_token',
    userinfo: 'https://graph.instagram.com/me',
  },
  kakao: {
    authorization: 'https://kauth.kakao.com/oauth/authorize',
    token: 'https://kauth.kakao.com/oauth/token',
    userinfo: 'https://kapi.kakao.com/v2/user/me',
  },
  keycloak: { issuer: 'https://sso.example.test/realms/main' },
  kinde: { issuer: 'https://acme.kinde.test' },
  line: { issuer: 'https://access.line.me' },
  linkedin: { issuer: 'https://www.linkedin.com/oauth' },
  logto: { issuer: 'https://tenant.logto.test/oidc' },
  mailchimp: {
    authorization: 'https://login.mailchimp.com/oauth2/authorize',
    token: 'https://login.mailchimp.com/oauth2/token',
    userinfo: 'https://login.mailchimp.com/oauth2/metadata',
  },
  mailru: {
    authorization: 'https://oauth.mail.ru/login',
    token: 'https://oauth.mail.ru/token',
    userinfo: 'https://oauth.mail.ru/userinfo',
  },
  mastodon: {
    authorization: 'https://mastodon.example.test/oauth/authorize',
    token: 'https://mastodon.example.test/oauth/token',
    userinfo: 'https://mastodon.example.test/api/v1/accounts/verify_credentials',
  },
  mattermost: {
    authorization: 'https://chat.example.test/oauth/authorize',
    token: 'https://chat.example.test/oauth/access_token',
    userinfo: 'https://chat.example.test/api/v4/users/me',
  },
  medium: {
    authorization: 'https://medium.com/m/oauth/authorize',
    token: 'https://api.medium.com/v1/tokens',
    userinfo: 'https://api.medium.com/v1/me',
  },
  'microsoft-entra-id': { issuer: 'https://login.microsoftonline.com/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0' },
  naver: {
    authorization: 'https://nid.naver.com/oauth2.0/authorize',
    token: 'https://nid.naver.com/oauth2.0/token',
    userinfo: 'https://openapi.naver.com/v1/nid/me',
  },
  netlify: {
    authorization: 'https://app.netlify.com/authorize',
    token: 'https://api.netlify.com/oauth/token',
    userinfo: 'https://api.netlify.com/api/v1/user',
  },
  netsuite: {
    authorization: 'https://tstdrv1234567.app.netsuite.com/app/login/oauth2/authorize.nl',
    token: 'https://tstdrv1234567.suitetalk.api.netsuite.com/services/rest/auth/oauth2/v1/token',
    userinfo: 'https://tstdrv1234567.restlets.api.netsuite.com/app/site/hosting/restlet.nl',
  },
  nextcloud: {
    authorization: 'https://cloud.example.test/apps/oauth2/authorize',
    token: 'https://cloud.example.test/apps/oauth2/api/v1/token',
    userinfo: 'https://cloud.example.test/ocs/v1.php/cloud/users',
  },
  notion: {
    authorization: 'https://api.notion.com/v1/oauth/authorize',
    token: 'https://api.notion.com/v1/oauth/token',
    userinfo: 'https://api.notion.com/v1/users',
  },
  okta: { issuer: 'https://org.okta.test/oauth2/default' },
  onelogin: { issuer: 'https://acme.onelogin.test/oidc/2' },
  'ory-hydra': { issuer: 'https://project.projects.oryapis.test' },
  osso: {
    authorization: 'https://demo.ossoapp.test/oauth/authorize',
    token: 'https://demo.ossoapp.test/oauth/token',
    userinfo: 'https://demo.ossoapp.test/oauth/me',
  },
  osu: {
    authorization: 'https://osu.ppy.sh/oauth/authorize',
    token: 'https://osu.ppy.sh/oauth/token',
    userinfo: 'https://osu.ppy.sh/api/v2/me',
  },
  passage: { issuer: 'https://appid.withpassage.test' },
  patreon: {
    authorization: 'https://www.patreon.com/oauth2/authorize',
    token: 'https://www.patreon.com/api/oauth2/token',
    userinfo: 'https://www.patreon.com/api/oauth2/v2/identity',
  },
  'ping-id': { issuer: 'https://auth.pingone.test/env-1234/as' },
  pinterest: {
    authorization: 'https://www.pinterest.com/oauth',
    token: 'https://api.pinterest.com/v5/oauth/token',
    userinfo: 'https://api.pinterest.com/v5/user_account',
  },
  pipedrive: {
    authorization: 'https://oauth.pipedrive.com/oauth/authorize',
    token: 'https://oauth.pipedrive.com/oauth/token',
    userinfo: 'https://api.pipedrive.com/v1/users/me',
  },
  reddit: {
    authorization: 'https://www.reddit.com/api/v1/authorize',
    token: 'https://www.reddit.com/api/v1/access_token',
    userinfo: 'https://oauth.reddit.com/api/v1/me',
  },
  roblox: { issuer: 'https://apis.roblox.com/oauth/' },
  salesforce: { issuer: 'https://login.salesforce.com' },
  simplelogin: { issuer: 'https://app.simplelogin.io' },
  slack: { issuer: 'https://slack.com' },
  spotify: {
    authorization: 'https://accounts.spotify.com/authorize',
    token: 'https://accounts.spotify.com/api/token',
    userinfo: 'https://api.spotify.com/v1/me',
  },
  strava: {
    authorization: 'https://www.strava.com/api/v3/oauth/authorize',
    token: 'https://www.strava.com/api/v3/oauth/token',
    userinfo: 'https://www.strava.com/api/v3/athlete',
  },
  threads: {
    authorization: 'https://threads.net/oauth/authorize',
    token: 'https://graph.threads.net/oauth/access_token',
    userinfo: 'https://graph.threads.net/v1.0/me',
  },
  tiktok: {
    authorization: 'https://www.tiktok.com/v2/auth/authorize',
    token: 'https://open.tiktokapis.com/v2/oauth/token/',
    userinfo: 'https://open.tiktokapis.com/v2/user/info/',
  },
  todoist: {
    authorization: 'https://todoist.com/oauth/authorize',
    token: 'https://todoist.com/oauth/access_token',
    userinfo: 'https://api.todoist.com/sync/v9/sync',
  },
  trakt: {
    authorization: 'https://trakt.tv/oauth/authorize',
    token: 'https://api.trakt.tv/oauth/token',
    userinfo: 'https://api.trakt.tv/users/me',
  },
  twitch: { issuer: 'https://id.twitch.tv/oauth2' },
  twitter: {
    authorization: 'https://x.com/i/oauth2/authorize',
    token: 'https://api.x.com/2/oauth2/token',
    userinfo: 'https://api.x.com/2/users/me',
  },
  'united-effects': { issuer: 'https://auth.unitedeffects.test/group-1' },
  vipps: { issuer: 'https://api.vipps.no/access-management-1.0/access/' },
  vk: {
    authorization: 'https://oauth.vk.com/authorize',
    token: 'https://oauth.vk.com/access_token',
    userinfo: 'https://api.vk.com/method/users.get',
  },
  webex: {
    authorization: 'https://webexapis.com/v1/authorize',
    token: 'https://webexapis.com/v1/access_token',
    userinfo: 'https://webexapis.com/v1/people/me',
  },
  wechat: {
    authorization: 'https://open.weixin.qq.com/connect/oauth2/authorize',
    token: 'https://api.weixin.qq.com/sns/oauth2/access_token',
    userinfo: 'https://api.weixin.qq.com/sns/userinfo',
  },
  wikimedia: {
    authorization: 'https://meta.wikimedia.org/w/rest.php/oauth2/authorize',
    token: 'https://meta.wikimedia.org/w/rest.php/oauth2/access_token',
    userinfo: 'https://meta.wikimedia.org/w/rest.php/oauth2/resource/profile',
  },
  wordpress: {
    authorization: 'https://public-api.wordpress.com/oauth2/authorize',
    token: 'https://public-api.wordpress.com/oauth2/token',
    userinfo: 'https://public-api.wordpress.com/rest/v1/me',
  },
  workos: {
    authorization: 'https://api.workos.com/sso/authorize',
    token: 'https://api.workos.com/sso/token',
    userinfo: 'https://api.workos.com/sso/profile',
  },
  yandex: {
    authorization: 'https://oauth.yandex.ru/authorize',
    token: 'https://oauth.yandex.ru/token',
    userinfo: 'https://login.yandex.ru/info',
  },
  zitadel: { issuer: 'https://example-abc.zitadel.test' },
  zoho: {
    authorization: 'https://accounts.zoho.com/oauth/v2/auth',
    token: 'https://accounts.zoho.com/oauth/v2/token',
    userinfo: 'https://accounts.zoho.com/oauth/user/info',
  },
  zoom: {
    authorization: 'https://zoom.us/oauth/authorize',
    token: 'https://zoom.us/oauth/token',
    userinfo: 'https://api.zoom.us/v2/users/me',
  },
}
