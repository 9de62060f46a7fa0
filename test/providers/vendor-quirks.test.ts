/**
 * The vendor quirks that need code, each through `Auth()` against the vendor stand-in (vendor-auth-flow.ts; the
 * vendors themselves cannot be reached from here), with the refusal that shows the protection where there is one.
 */
import { generateKeyPair, SignJWT } from 'jose'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { bearerWhenUntyped } from '../../src/providers-internal/token-type.js'
import { startFakeVendorServer, type FakeVendorServer } from './fake-vendor-server.js'
import { errorOf, startVendorSignIn } from './vendor-auth-flow.js'
import { clientId, clientSecret } from './vendor-authorization-server.js'

let fake: FakeVendorServer
beforeAll(async () => {
  fake = await startFakeVendorServer()
})
beforeEach(() => fake.reset())
afterAll(() => fake.close())

const tenant = '9188040d-6c67-4c5b-b112-36a304b66dad'

describe('GitHub', () => {
  it('looks the e-mail up in /user/emails when the profile hides it, taking a verified address', async () => {
    const flow = await startVendorSignIn(fake, 'github')
    expect(errorOf(await flow.complete())).toBeNull()
    expect((await flow.sessionUser())?.email).toBe('octo@example.test')
    expect(fake.requestsTo('https://api.github.com/user/emails')[0]?.headers.get('authorization')).toBe(
      'Bearer vendor-access-token',
    )
  })

  it('makes no second request when the profile has a public e-mail', async () => {
    const flow = await startVendorSignIn(
      fake,
      'github',
      {},
      { userinfo: { id: 1, login: 'mona', name: 'Mona', email: 'mona@example.test', avatar_url: 'https://a.test/1' } },
    )
    await flow.complete()
    expect((await flow.sessionUser())?.email).toBe('mona@example.test')
    expect(fake.requestsTo('https://api.github.com/user/emails')).toHaveLength(0)
  })

  it('leaves the e-mail empty when no listed address is verified', async () => {
    const flow = await startVendorSignIn(
      fake,
      'github',
      {},
      {
        routes: {
          'GET https://api.github.com/user/emails': [
            { email: 'x@example.test', primary: true, verified: false, visibility: 'private' },
          ],
        },
      },
    )
    await flow.complete()
    // The profile has no address (null), and the session answers it as null, as Auth.js answers a null.
    expect((await flow.sessionUser())?.email).toBeNull()
  })
})

describe('GitLab', () => {
  it('endpoints written as URL strings (as in Auth.js) keep their URL when the app overrides the scope', async () => {
    const flow = await startVendorSignIn(fake, 'gitlab', { authorization: { params: { scope: 'read_user openid' } } })
    expect(`${flow.authorizationUrl.origin}${flow.authorizationUrl.pathname}`).toBe(
      'https://gitlab.com/oauth/authorize',
    )
    expect(flow.authorizationUrl.searchParams.get('scope')).toBe('read_user openid')
    expect(errorOf(await flow.complete())).toBeNull()
  })
})

describe('Apple', () => {
  it('asks for form_post, and takes the first-login name from the posted `user`', async () => {
    const flow = await startVendorSignIn(fake, 'apple')
    expect(flow.authorizationUrl.searchParams.get('response_mode')).toBe('form_post')
    expect(flow.authorizationUrl.searchParams.get('scope')).toBe('name email')
    expect(errorOf(await flow.complete())).toBeNull()
    expect((await flow.sessionUser())?.name).toBe('Ada Lovelace')
  })

  it('falls back to the e-mail address on later sign-ins, which carry no `user`', async () => {
    const flow = await startVendorSignIn(fake, 'apple', {}, { formPost: {} })
    await flow.complete()
    expect((await flow.sessionUser())?.name).toBe('ada@privaterelay.appleid.test')
  })

  it('authenticates with the client secret in the body (Apple wants client_secret_post)', async () => {
    const flow = await startVendorSignIn(fake, 'apple')
    await flow.complete()
    const token = fake.requestsTo('https://appleid.apple.com/vendor/token')[0]
    expect(token?.form.get('client_secret')).toBe(clientSecret)
    expect(token?.headers.has('authorization')).toBe(false)
  })
})

describe('X / Twitter', () => {
  it('asks the users/me endpoint for profile_image_url through user.fields by default', async () => {
    const flow = await startVendorSignIn(fake, 'twitter')
    await flow.complete()
    expect(fake.requestsTo('https://api.x.com/2/users/me')[0]?.url.searchParams.get('user.fields')).toBe(
      'profile_image_url',
    )
  })

  it("sends the app's own user.fields instead when given", async () => {
    const flow = await startVendorSignIn(fake, 'twitter', {
      userinfo: { params: { 'user.fields': 'profile_image_url,verified' } },
    })
    await flow.complete()
    expect(fake.requestsTo('https://api.x.com/2/users/me')[0]?.url.searchParams.get('user.fields')).toBe(
      'profile_image_url,verified',
    )
  })
})

describe('Microsoft Entra ID', () => {
  it('uses the tenant-specific issuer and accepts its ID tokens', async () => {
    const flow = await startVendorSignIn(fake, 'microsoft-entra-id')
    expect(flow.resolved.issuer).toBe(`https://login.microsoftonline.com/${tenant}/v2.0`)
    expect(errorOf(await flow.complete())).toBeNull()
  })

  it('refuses an ID token issued by another tenant', async () => {
    const other = '72f988bf-86f1-41af-91ab-2d7cd011db47'
    const flow = await startVendorSignIn(
      fake,
      'microsoft-entra-id',
      {},
      { profile: { sub: 'intruder', tid: other, iss: `https://login.microsoftonline.com/${other}/v2.0` } },
    )
    // The stand-in puts its own issuer in every token; replace the token endpoint with one issuing for another tenant.
    fake.on('POST', `https://login.microsoftonline.com/${tenant}/v2.0/vendor/token`, async () => ({
      json: {
        access_token: 'vendor-access-token',
        token_type: 'Bearer',
        id_token: await fake.signIdToken({
          iss: `https://login.microsoftonline.com/${other}/v2.0`,
          aud: clientId,
          sub: 'intruder',
          tid: other,
          iat: Math.floor(Date.now() / 1000),
          exp: Math.floor(Date.now() / 1000) + 600,
        }),
      },
    }))
    expect(errorOf(await flow.complete())).toBe('OAuthCallbackError')
    expect(await flow.sessionUser()).toBeUndefined()
  })

  it("azure-ad is the same provider under Auth.js's old id", async () => {
    const flow = await startVendorSignIn(fake, 'azure-ad')
    expect(flow.resolved.issuer).toBe(`https://login.microsoftonline.com/${tenant}/v2.0`)
    expect(flow.authorizationUrl.searchParams.get('scope')).toBe('openid profile email User.Read')
  })
})

describe('Slack, LinkedIn, Discord, Facebook, Spotify, Twitch', () => {
  it('Slack: nonce and state, no PKCE (its token endpoint takes no verifier)', async () => {
    const flow = await startVendorSignIn(fake, 'slack')
    expect(flow.authorizationUrl.searchParams.has('nonce')).toBe(true)
    expect(flow.authorizationUrl.searchParams.has('state')).toBe(true)
    expect(flow.authorizationUrl.searchParams.has('code_challenge')).toBe(false)
  })

  it('Slack: an error answered with status 200 and ok:false is refused, no session', async () => {
    const flow = await startVendorSignIn(fake, 'slack')
    fake.on('POST', 'https://slack.com/vendor/token', () => ({ json: { ok: false, error: 'invalid_code' } }))
    expect(errorOf(await flow.complete())).toBe('OAuthCallbackError')
    expect(await flow.sessionUser()).toBeUndefined()
  })

  it('LinkedIn: the secret goes in the body, and state (not PKCE) binds the flow', async () => {
    const flow = await startVendorSignIn(fake, 'linkedin')
    expect(flow.authorizationUrl.searchParams.has('state')).toBe(true)
    expect(flow.authorizationUrl.searchParams.has('code_challenge')).toBe(false)
    await flow.complete()
    expect(fake.requestsTo('https://www.linkedin.com/oauth/vendor/token')[0]?.form.get('client_secret')).toBe(
      clientSecret,
    )
  })

  it('Discord: a user without an avatar gets the default avatar of their id', async () => {
    const flow = await startVendorSignIn(
      fake,
      'discord',
      {},
      {
        userinfo: {
          id: '80351110224678912',
          username: 'nelly',
          global_name: 'Nelly',
          discriminator: '0',
          avatar: null,
          email: 'nelly@example.test',
        },
      },
    )
    await flow.complete()
    expect((await flow.sessionUser())?.image).toBe('https://cdn.discordapp.com/embed/avatars/5.png')
  })

  it('Facebook: asks Graph for the profile fields it maps, and reads the nested picture', async () => {
    const flow = await startVendorSignIn(fake, 'facebook')
    await flow.complete()
    expect(fake.requestsTo('https://graph.facebook.com/me')[0]?.url.searchParams.get('fields')).toBe(
      'id,name,email,picture',
    )
    expect((await flow.sessionUser())?.image).toBe('https://fb.test/p.jpg')
  })

  it('Spotify: the first (largest) image is the picture', async () => {
    const flow = await startVendorSignIn(fake, 'spotify')
    await flow.complete()
    expect((await flow.sessionUser())?.image).toBe('https://i.scdn.test/big.jpg')
  })

  it('Twitch: asks for the profile claims through `claims`, and takes a scope array in the token answer', async () => {
    const flow = await startVendorSignIn(fake, 'twitch')
    expect(JSON.parse(flow.authorizationUrl.searchParams.get('claims') ?? '{}')).toMatchObject({
      id_token: { email: null, picture: null, preferred_username: null },
    })
    expect(errorOf(await flow.complete())).toBeNull()
    expect(flow.signIns[0]?.account?.scope).toBe('openid user:read:email')
  })
})

describe('vendors whose profile takes more than one plain request', () => {
  it('Bitbucket: the primary confirmed address from /2.0/user/emails', async () => {
    const flow = await startVendorSignIn(fake, 'bitbucket')
    await flow.complete()
    expect((await flow.sessionUser())?.email).toBe('primary@bitbucket.test')
  })

  it('Bitbucket: an unconfirmed primary address is not used', async () => {
    const flow = await startVendorSignIn(
      fake,
      'bitbucket',
      {},
      {
        routes: {
          'GET https://api.bitbucket.org/2.0/user/emails': {
            values: [{ email: 'unconfirmed@bitbucket.test', is_primary: true, is_confirmed: false }],
          },
        },
      },
    )
    await flow.complete()
    // The profile has no address (null), and the session answers it as null, as Auth.js answers a null.
    expect((await flow.sessionUser())?.email).toBeNull()
  })

  it('VK: the e-mail address comes from the token response, the user from users.get with the token in the query', async () => {
    const flow = await startVendorSignIn(fake, 'vk')
    await flow.complete()
    const usersGet = fake.requestsTo('https://api.vk.com/method/users.get')[0]
    expect(usersGet?.url.searchParams.get('access_token')).toBe('vendor-access-token')
    expect(usersGet?.url.searchParams.get('v')).toBe('5.131')
    expect((await flow.sessionUser())?.email).toBe('durov@vk.test')
  })

  it("Notion: the person is the owner of the integration's bot user; a null refresh token is not stored", async () => {
    const flow = await startVendorSignIn(fake, 'notion')
    await flow.complete()
    expect(fake.requestsTo('https://api.notion.com/v1/users/me')[0]?.headers.get('notion-version')).toBe('2022-06-28')
    expect(flow.signIns[0]?.account).not.toHaveProperty('refresh_token')
  })

  it("Bungie: the account of the token's membership id, with the application's API key", async () => {
    const flow = await startVendorSignIn(fake, 'bungie')
    await flow.complete()
    const account = fake.requestsTo('https://www.bungie.net/Platform/User/GetBungieAccount/4611686018/254/')[0]
    expect(account?.headers.get('x-api-key')).toBe('bungie-api-key')
  })

  it('Trakt: names the API version and the app in headers', async () => {
    const flow = await startVendorSignIn(fake, 'trakt')
    await flow.complete()
    const me = fake.requestsTo('https://api.trakt.tv/users/me')[0]
    expect(me?.headers.get('trakt-api-version')).toBe('2')
    expect(me?.headers.get('trakt-api-key')).toBe(clientId)
    expect(me?.url.searchParams.get('extended')).toBe('full')
  })

  it("HubSpot: the user comes from the access token's metadata", async () => {
    const flow = await startVendorSignIn(fake, 'hubspot')
    await flow.complete()
    expect((await flow.sessionUser())?.email).toBe('hub@example.test')
  })

  it('Foursquare and Mail.ru: the token goes in the query, as these APIs want', async () => {
    const foursquare = await startVendorSignIn(fake, 'foursquare')
    await foursquare.complete()
    const self = fake.requestsTo('https://api.foursquare.com/v2/users/self')[0]
    expect(self?.url.searchParams.get('oauth_token')).toBe('vendor-access-token')
    expect(self?.url.searchParams.get('v')).toBe('20230131')
    const mailru = await startVendorSignIn(fake, 'mailru')
    await mailru.complete()
    expect(fake.requestsTo('https://oauth.mail.ru/userinfo')[0]?.url.searchParams.get('access_token')).toBe(
      'vendor-access-token',
    )
  })

  it('Nextcloud: the OCS user named by the token response, asked for JSON with the OCS-APIRequest header', async () => {
    const flow = await startVendorSignIn(fake, 'nextcloud')
    await flow.complete()
    const user = fake.requestsTo('https://cloud.example.test/ocs/v1.php/cloud/users/nc-user')[0]
    expect(user?.headers.get('ocs-apirequest')).toBe('true')
    expect(user?.headers.get('accept')).toBe('application/json')
    expect((await flow.sessionUser())?.name).toBe('Next Cloud')
  })

  it('Todoist: the user record comes from a Sync API POST for the user resource', async () => {
    const flow = await startVendorSignIn(fake, 'todoist')
    await flow.complete()
    const sync = fake.requestsTo('https://api.todoist.com/sync/v9/sync')[0]
    expect(sync?.method).toBe('POST')
    expect(sync?.form.get('resource_types')).toBe('["user"]')
  })
})

describe('vendors that name the client their own way', () => {
  it('TikTok: client_key on the authorization request and at the token endpoint', async () => {
    const flow = await startVendorSignIn(fake, 'tiktok')
    expect(flow.authorizationUrl.searchParams.get('client_key')).toBe(clientId)
    await flow.complete()
    expect(fake.requestsTo('https://open.tiktokapis.com/v2/oauth/token/')[0]?.form.get('client_key')).toBe(clientId)
  })

  it('WeChat: appid on the authorization request, appid and secret at the token endpoint, openid for userinfo', async () => {
    const flow = await startVendorSignIn(fake, 'wechat')
    expect(flow.authorizationUrl.searchParams.get('appid')).toBe(clientId)
    expect(flow.authorizationUrl.searchParams.get('scope')).toBe('snsapi_userinfo')
    await flow.complete()
    const token = fake.requestsTo('https://api.weixin.qq.com/sns/oauth2/access_token')[0]
    expect(token?.form.get('appid')).toBe(clientId)
    expect(token?.form.get('secret')).toBe(clientSecret)
    expect(fake.requestsTo('https://api.weixin.qq.com/sns/userinfo')[0]?.url.searchParams.get('openid')).toBe(
      'OPENID-1',
    )
  })

  it('WeChat: the website QR-code login when platformType is WebsiteApp', async () => {
    const flow = await startVendorSignIn(fake, 'wechat', { platformType: 'WebsiteApp' })
    expect(`${flow.authorizationUrl.origin}${flow.authorizationUrl.pathname}`).toBe(
      'https://open.weixin.qq.com/connect/qrconnect',
    )
    expect(flow.authorizationUrl.searchParams.get('scope')).toBe('snsapi_login')
  })
})

describe('issuers built from options', () => {
  it('Asgardeo: the organisation URL gets the /oauth2/token suffix its tokens carry', async () => {
    const flow = await startVendorSignIn(fake, 'asgardeo')
    expect(flow.resolved.issuer).toBe('https://api.asgardeo.io/t/acme/oauth2/token')
    const again = await startVendorSignIn(fake, 'asgardeo', { issuer: 'https://api.asgardeo.io/t/acme/oauth2/token/' })
    expect(again.resolved.issuer).toBe('https://api.asgardeo.io/t/acme/oauth2/token')
  })

  it("OneLogin: the account URL (Auth.js's form) gets the /oidc/2 its tokens carry", async () => {
    const flow = await startVendorSignIn(fake, 'onelogin', { issuer: 'https://acme.onelogin.test' })
    expect(flow.resolved.issuer).toBe('https://acme.onelogin.test/oidc/2')
  })

  it("NetSuite: the account id (given as issuer, as in Auth.js) names the account's hosts", async () => {
    const flow = await startVendorSignIn(
      fake,
      'netsuite',
      { issuer: '81555_SB1' },
      { options: { userinfo: 'https://81555-sb1.restlets.api.netsuite.com/app/site/hosting/restlet.nl' } },
    )
    expect(flow.authorizationUrl.origin).toBe('https://81555-sb1.app.netsuite.com')
    expect(flow.resolved.issuer).toBeUndefined()
  })

  it('Descope: without an issuer, the project id (the client id) names it', async () => {
    const flow = await startVendorSignIn(fake, 'descope', { issuer: undefined }, { options: {} })
    expect(flow.resolved.issuer).toBe(`https://api.descope.com/${clientId}`)
  })

  it("FusionAuth: a tenant id selects that tenant's discovery document", async () => {
    const flow = await startVendorSignIn(fake, 'fusionauth', { tenantId: 'tenant-1' })
    expect(flow.resolved.wellKnown).toBe(
      'https://login.piedpiper.test/.well-known/openid-configuration?tenantId=tenant-1',
    )
    expect(flow.authorizationUrl.searchParams.get('tenantId')).toBe('tenant-1')
  })

  it('a self-hosted OAuth vendor without its instance URL is refused at configuration, saying what is missing', async () => {
    const flow = startVendorSignIn(fake, 'mastodon', { issuer: undefined }, { options: {} })
    await expect(flow).rejects.toMatchObject({
      name: 'InvalidEndpoints',
      message: expect.stringContaining('needs issuer'),
    })
  })
})

describe('token answers without token_type', () => {
  it('Instagram, Threads, VK, Foursquare, WeChat sign in although their token answer has no token_type', async () => {
    for (const id of ['instagram', 'threads', 'vk', 'foursquare', 'wechat']) {
      fake.reset()
      const flow = await startVendorSignIn(fake, id)
      expect(errorOf(await flow.complete())).toBeNull()
      expect(flow.signIns[0]?.account?.token_type).toBe('bearer')
    }
  })

  it('a token type the vendor did send is never rewritten: a non-bearer token is refused', async () => {
    const flow = await startVendorSignIn(fake, 'instagram', {}, { token: { token_type: 'mac' } })
    expect(errorOf(await flow.complete())).toBe('OAuthCallbackError')
    expect(await flow.sessionUser()).toBeUndefined()
  })

  it('an error answer passes through untouched', async () => {
    const answer = Response.json({ error: 'invalid_grant' }, { status: 400 })
    expect(await bearerWhenUntyped(answer)).toBeUndefined()
  })
})

describe('BankID Norway', () => {
  const userinfoUrl = 'https://auth.bankid.no/auth/realms/prod/vendor/userinfo'

  it('takes the profile from the signed userinfo answer, the only place with the e-mail address', async () => {
    const flow = await startVendorSignIn(fake, 'bankid-no')
    expect(flow.authorizationUrl.searchParams.get('ui_locales')).toBe('no')
    expect(errorOf(await flow.complete())).toBeNull()
    expect((await flow.sessionUser())?.email).toBe('kari@bankid.test')
  })

  it("refuses a userinfo JWT not signed by BankID's key", async () => {
    const flow = await startVendorSignIn(fake, 'bankid-no')
    const { privateKey } = await generateKeyPair('RS256')
    const forged = await new SignJWT({
      sub: '9578-6000-4-365161',
      email: 'attacker@example.test',
      iss: 'https://auth.bankid.no/auth/realms/prod',
      aud: clientId,
    })
      .setProtectedHeader({ alg: 'RS256', kid: 'vendor-key' })
      .sign(privateKey)
    fake.on('GET', userinfoUrl, () => ({ body: forged, headers: { 'content-type': 'application/jwt' } }))
    // The check runs in profile(); a failing profile() ends the sign-in as OAuthProfileParseError, which Auth.js
    // (and so Authchart) shows on the error page as "Configuration".
    expect(errorOf(await flow.complete())).toBe('Configuration')
    expect(flow.config.recorded.errors.map((error) => error.name)).toContain('OAuthProfileParseError')
    expect(await flow.sessionUser()).toBeUndefined()
  })

  it('refuses a userinfo JWT about another subject than the ID token', async () => {
    const flow = await startVendorSignIn(fake, 'bankid-no')
    const now = Math.floor(Date.now() / 1000)
    const other = await fake.signIdToken({
      sub: 'someone-else',
      email: 'else@example.test',
      iss: 'https://auth.bankid.no/auth/realms/prod',
      aud: clientId,
      iat: now,
    })
    fake.on('GET', userinfoUrl, () => ({ body: other, headers: { 'content-type': 'application/jwt' } }))
    expect(errorOf(await flow.complete())).toBe('Configuration')
    expect(await flow.sessionUser()).toBeUndefined()
  })
})
