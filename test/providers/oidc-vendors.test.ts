/**
 * The built-in OpenID Connect vendors, each signed in against a fake of its discovery, JWKS and token endpoints
 * (see fake-vendor-server.ts for why a fake): issuer shapes, checks, client authentication, claim mapping, and the
 * vendors' non-standard answers.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { OAuthCallbackError } from '../../src/errors.js'
import Apple from '../../src/providers/apple.js'
import Auth0 from '../../src/providers/auth0.js'
import Authentik from '../../src/providers/authentik.js'
import Cognito from '../../src/providers/cognito.js'
import Google from '../../src/providers/google.js'
import Keycloak from '../../src/providers/keycloak.js'
import LinkedIn from '../../src/providers/linkedin.js'
import MicrosoftEntraID from '../../src/providers/microsoft-entra-id.js'
import type { OAuthConfigOfAnyProfile } from '../../src/providers-internal/normalize-oauth.js'
import Okta from '../../src/providers/okta.js'
import Slack from '../../src/providers/slack.js'
import Twitch from '../../src/providers/twitch.js'
import Zitadel from '../../src/providers/zitadel.js'
import { customFetch } from '../../src/types/symbols.js'
import { startFakeVendorServer, type FakeVendorServer } from './fake-vendor-server.js'
import {
  clientId,
  clientSecret,
  resolveVendor,
  serveOidcVendor,
  signInWithVendor,
  type OidcVendorFake,
} from './vendor-sign-in.js'

let fake: FakeVendorServer
beforeAll(async () => {
  fake = await startFakeVendorServer()
})
beforeEach(() => fake.reset())
afterAll(() => fake.close())

const credentials = () => ({ clientId, clientSecret, [customFetch]: fake.fetch })
const tenant = '9188040d-6c67-4c5b-b112-36a304b66dad'
const endpoints = (origin: string, prefix = '') => ({
  authorizationEndpoint: `${origin}${prefix}/authorize`,
  tokenEndpoint: `${origin}${prefix}/token`,
  jwksUri: `${origin}${prefix}/jwks`,
})

interface OidcVendorCase {
  name: string
  provider: () => OAuthConfigOfAnyProfile
  vendor: OidcVendorFake
  user: Record<string, unknown>
  checks: { state: boolean; nonce: boolean; pkce: boolean }
  tokenAuth?: 'basic' | 'post'
  callbackParams?: Record<string, string>
  serve?: () => void
}

const cases: OidcVendorCase[] = [
  {
    name: 'Google (iss in the authorization response)',
    provider: () => Google(credentials()),
    vendor: {
      issuer: 'https://accounts.google.com',
      authorizationEndpoint: 'https://accounts.google.com/o/oauth2/v2/auth',
      tokenEndpoint: 'https://oauth2.googleapis.com/token',
      jwksUri: 'https://www.googleapis.com/oauth2/v3/certs',
      issParameter: true,
      claims: {
        sub: '110169484474386276334',
        email: 'Ada@Example.test',
        email_verified: true,
        name: 'Ada L',
        picture: 'https://lh3.example/a',
        hd: 'example.test',
      },
    },
    user: { id: '110169484474386276334', name: 'Ada L', email: 'ada@example.test', image: 'https://lh3.example/a' },
    checks: { state: false, nonce: false, pkce: true },
  },
  {
    name: 'Microsoft Entra ID (single tenant, photo from Microsoft Graph)',
    provider: () => MicrosoftEntraID({ ...credentials(), tenantId: tenant }),
    vendor: {
      issuer: `https://login.microsoftonline.com/${tenant}/v2.0`,
      ...endpoints('https://login.microsoftonline.com', `/${tenant}/oauth2/v2.0`),
      claims: {
        sub: 'AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ',
        tid: tenant,
        name: 'Megan Bowen',
        email: 'megan@contoso.test',
      },
    },
    serve: () =>
      fake.on('GET', 'https://graph.microsoft.com/v1.0/me/photos/48x48/$value', () => ({
        body: new Uint8Array([0xff, 0xd8, 0xff]),
        headers: { 'content-type': 'image/jpeg' },
      })),
    user: {
      id: 'AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ',
      name: 'Megan Bowen',
      email: 'megan@contoso.test',
      image: 'data:image/jpeg;base64,/9j/',
    },
    checks: { state: false, nonce: false, pkce: true },
  },
  {
    name: 'Microsoft Entra ID (common tenant: {tenantid} issuer template filled from tid, no photo)',
    provider: () => MicrosoftEntraID(credentials()),
    vendor: {
      issuer: 'https://login.microsoftonline.com/common/v2.0',
      discoveredIssuer: 'https://login.microsoftonline.com/{tenantid}/v2.0',
      ...endpoints('https://login.microsoftonline.com', '/common/oauth2/v2.0'),
      claims: {
        iss: `https://login.microsoftonline.com/${tenant}/v2.0`,
        sub: 'entra-sub',
        tid: tenant,
        name: 'Alex Wilber',
        email: 'alex@contoso.test',
      },
    },
    user: { id: 'entra-sub', name: 'Alex Wilber', email: 'alex@contoso.test', image: null },
    checks: { state: false, nonce: false, pkce: true },
  },
  {
    name: 'Apple (form_post, secret in the body, name from the first authorization)',
    provider: () => Apple(credentials()),
    vendor: {
      issuer: 'https://appleid.apple.com',
      authorizationEndpoint: 'https://appleid.apple.com/auth/authorize',
      tokenEndpoint: 'https://appleid.apple.com/auth/token',
      jwksUri: 'https://appleid.apple.com/auth/keys',
      claims: { sub: '001234.abc', email: 'ada@privaterelay.appleid.test', email_verified: 'true' },
    },
    callbackParams: {
      user: JSON.stringify({
        name: { firstName: 'Ada', lastName: 'Lovelace' },
        email: 'ada@privaterelay.appleid.test',
      }),
    },
    user: { id: '001234.abc', name: 'Ada Lovelace', email: 'ada@privaterelay.appleid.test', image: null },
    checks: { state: true, nonce: true, pkce: false },
    tokenAuth: 'post',
  },
  {
    name: 'Slack (namespaced claims, no PKCE)',
    provider: () => Slack(credentials()),
    vendor: {
      issuer: 'https://slack.com',
      authorizationEndpoint: 'https://slack.com/openid/connect/authorize',
      tokenEndpoint: 'https://slack.com/api/openid.connect.token',
      jwksUri: 'https://slack.com/openid/connect/keys',
      tokenBody: (body) => ({ ok: true, ...body }),
      claims: {
        sub: 'U0R7JM',
        'https://slack.com/user_id': 'U0R7JM',
        'https://slack.com/team_id': 'T0R7GR',
        email: 'krane@slack-corp.test',
        name: 'krane',
        'https://slack.com/user_image_512': 'https://avatars.slack.example/512.png',
      },
    },
    user: {
      id: 'U0R7JM',
      name: 'krane',
      email: 'krane@slack-corp.test',
      image: 'https://avatars.slack.example/512.png',
    },
    checks: { state: true, nonce: true, pkce: false },
  },
  {
    name: 'LinkedIn (secret in the body, state only)',
    provider: () => LinkedIn(credentials()),
    vendor: {
      issuer: 'https://www.linkedin.com/oauth',
      authorizationEndpoint: 'https://www.linkedin.com/oauth/v2/authorization',
      tokenEndpoint: 'https://www.linkedin.com/oauth/v2/accessToken',
      jwksUri: 'https://www.linkedin.com/oauth/openid/jwks',
      claims: { sub: '782bbtaQ', name: 'John Doe', email: 'doe@email.test', picture: 'https://media.licdn.example/p' },
    },
    user: { id: '782bbtaQ', name: 'John Doe', email: 'doe@email.test', image: 'https://media.licdn.example/p' },
    checks: { state: true, nonce: false, pkce: false },
    tokenAuth: 'post',
  },
  {
    name: 'Auth0 (issuer with a trailing slash, name from nickname)',
    provider: () => Auth0({ ...credentials(), issuer: 'https://tenant.eu.auth0.com/' }),
    vendor: {
      issuer: 'https://tenant.eu.auth0.com/',
      ...endpoints('https://tenant.eu.auth0.com'),
      claims: { sub: 'auth0|5f7c8ec7c33c6c004bbafe82', nickname: 'jdoe', email: 'jdoe@example.test' },
    },
    user: { id: 'auth0|5f7c8ec7c33c6c004bbafe82', name: 'jdoe', email: 'jdoe@example.test' },
    checks: { state: false, nonce: false, pkce: true },
  },
  {
    name: 'Okta (custom authorization server, PKCE and state)',
    provider: () => Okta({ ...credentials(), issuer: 'https://org.okta.test/oauth2/default' }),
    vendor: {
      issuer: 'https://org.okta.test/oauth2/default',
      ...endpoints('https://org.okta.test', '/oauth2/default/v1'),
      claims: {
        sub: '00uid4BxXw6I6TV4m0g3',
        preferred_username: 'okta.user@example.test',
        email: 'okta.user@example.test',
      },
    },
    user: { id: '00uid4BxXw6I6TV4m0g3', name: 'okta.user@example.test', email: 'okta.user@example.test' },
    checks: { state: true, nonce: false, pkce: true },
  },
  {
    name: 'Keycloak (realm issuer)',
    provider: () => Keycloak({ ...credentials(), issuer: 'https://sso.example.test/realms/main' }),
    vendor: {
      issuer: 'https://sso.example.test/realms/main',
      ...endpoints('https://sso.example.test', '/realms/main/protocol/openid-connect'),
      claims: { sub: 'f:1b1e:kc', preferred_username: 'kc-user', email: 'kc@example.test' },
    },
    user: { id: 'f:1b1e:kc', name: 'kc-user', email: 'kc@example.test' },
    checks: { state: false, nonce: false, pkce: true },
  },
  {
    name: 'Cognito (endpoints on the hosted-UI domain, name from cognito:username)',
    provider: () =>
      Cognito({ ...credentials(), issuer: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEf' }),
    vendor: {
      issuer: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEf',
      authorizationEndpoint: 'https://my-pool.auth.eu-west-1.amazoncognito.com/oauth2/authorize',
      tokenEndpoint: 'https://my-pool.auth.eu-west-1.amazoncognito.com/oauth2/token',
      jwksUri: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEf/.well-known/jwks.json',
      claims: {
        sub: 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee',
        'cognito:username': 'pooluser',
        email: 'pool@example.test',
      },
    },
    user: { id: 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee', name: 'pooluser', email: 'pool@example.test' },
    checks: { state: false, nonce: false, pkce: true },
  },
  {
    name: 'Twitch (scope as an array, claims parameter, secret in the body)',
    provider: () => Twitch(credentials()),
    vendor: {
      issuer: 'https://id.twitch.tv/oauth2',
      ...endpoints('https://id.twitch.tv', '/oauth2'),
      tokenBody: (body) => ({ ...body, scope: ['openid', 'user:read:email'] }),
      claims: {
        sub: '713936733',
        preferred_username: 'twitchdev',
        email: 'dev@twitch.test',
        picture: 'https://static-cdn.example/p.png',
      },
    },
    user: { id: '713936733', name: 'twitchdev', email: 'dev@twitch.test', image: 'https://static-cdn.example/p.png' },
    checks: { state: false, nonce: false, pkce: true },
    tokenAuth: 'post',
  },
  {
    name: 'ZITADEL (instance issuer)',
    provider: () => Zitadel({ ...credentials(), issuer: 'https://example-abc.zitadel.test' }),
    vendor: {
      issuer: 'https://example-abc.zitadel.test',
      ...endpoints('https://example-abc.zitadel.test', '/oauth/v2'),
      claims: {
        sub: '165560330240836124',
        name: 'Zed Itadel',
        email: 'zed@example.test',
        'urn:zitadel:iam:org:id': '1655',
      },
    },
    user: { id: '165560330240836124', name: 'Zed Itadel', email: 'zed@example.test' },
    checks: { state: false, nonce: false, pkce: true },
  },
  {
    name: 'Authentik (application issuer with a trailing slash)',
    provider: () => Authentik({ ...credentials(), issuer: 'https://auth.example.test/application/o/my-app/' }),
    vendor: {
      issuer: 'https://auth.example.test/application/o/my-app/',
      ...endpoints('https://auth.example.test', '/application/o'),
      claims: { sub: 'ak-sub', preferred_username: 'akadmin', email: 'ak@example.test' },
    },
    user: { id: 'ak-sub', name: 'akadmin', email: 'ak@example.test' },
    checks: { state: false, nonce: false, pkce: true },
  },
]

describe('built-in OIDC vendors against a fake of their endpoints', () => {
  it.each(cases)('$name', async (vendorCase) => {
    const authorize = serveOidcVendor(fake, vendorCase.vendor)
    vendorCase.serve?.()
    const provider = resolveVendor(vendorCase.provider())
    const { authorizationUrl, result } = await signInWithVendor(provider, authorize, vendorCase.callbackParams)
    expect(`${authorizationUrl.origin}${authorizationUrl.pathname}`).toBe(vendorCase.vendor.authorizationEndpoint)
    const sent = authorizationUrl.searchParams
    expect({ state: sent.has('state'), nonce: sent.has('nonce'), pkce: sent.has('code_challenge') }).toEqual(
      vendorCase.checks,
    )
    expect(result.user).toMatchObject(vendorCase.user)
    expect(result.account).toMatchObject({
      provider: provider.id,
      type: 'oidc',
      providerAccountId: vendorCase.user.id,
      token_type: 'bearer',
    })
    const tokenRequest = fake.requestsTo(vendorCase.vendor.tokenEndpoint)[0]
    const usedPost =
      tokenRequest?.form.get('client_secret') === clientSecret && !tokenRequest.headers.has('authorization')
    expect(usedPost ? 'post' : 'basic').toBe(vendorCase.tokenAuth ?? 'basic')
  })
})

describe('OIDC vendor quirks', () => {
  it('Apple: asks for name and email with response_mode=form_post; later sign-ins fall back to the e-mail as name', async () => {
    const apple = cases.find((entry) => entry.name.startsWith('Apple'))
    if (!apple) throw new Error('Apple case missing')
    const { authorizationUrl, result } = await signInWithVendor(
      resolveVendor(Apple(credentials())),
      serveOidcVendor(fake, apple.vendor),
    )
    expect(authorizationUrl.searchParams.get('response_mode')).toBe('form_post')
    expect(authorizationUrl.searchParams.get('scope')).toBe('name email')
    expect(result.user.name).toBe('ada@privaterelay.appleid.test')
  })

  it('Slack: an error answered with status 200 and ok:false is refused with its error code', async () => {
    const slack = cases.find((entry) => entry.name.startsWith('Slack'))
    if (!slack) throw new Error('Slack case missing')
    const authorize = serveOidcVendor(fake, {
      ...slack.vendor,
      tokenBody: () => ({ ok: false, error: 'invalid_code' }),
    })
    await expect(signInWithVendor(resolveVendor(Slack(credentials())), authorize)).rejects.toMatchObject({
      constructor: OAuthCallbackError,
      cause: { check: 'token_endpoint', status: 200, error: 'invalid_code' },
    })
  })

  it('Twitch: requests the e-mail and picture through the claims parameter', async () => {
    const twitch = cases.find((entry) => entry.name.startsWith('Twitch'))
    if (!twitch) throw new Error('Twitch case missing')
    const { authorizationUrl } = await signInWithVendor(
      resolveVendor(Twitch(credentials())),
      serveOidcVendor(fake, twitch.vendor),
    )
    expect(JSON.parse(authorizationUrl.searchParams.get('claims') ?? '{}')).toMatchObject({
      id_token: { email: null, picture: null },
    })
  })

  it('Entra ID: a token from another tenant than its tid claims is refused', async () => {
    const common = cases.find((entry) => entry.name.includes('common tenant'))
    if (!common) throw new Error('Entra case missing')
    const authorize = serveOidcVendor(fake, {
      ...common.vendor,
      claims: { ...common.vendor.claims, tid: 'another-tenant' },
    })
    await expect(signInWithVendor(resolveVendor(MicrosoftEntraID(credentials())), authorize)).rejects.toMatchObject({
      constructor: OAuthCallbackError,
      cause: { check: 'id_token', reason: 'iss' },
    })
  })
})
