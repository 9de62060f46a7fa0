/** normalizeOAuthProvider: option merging, checks, redirect proxy, and the configuration errors it raises early. */
import { describe, expect, it } from 'vitest'
import { InvalidCheck, InvalidEndpoints, InvalidProvider } from '../../src/errors.js'
import Apple from '../../src/providers/apple.js'
import Auth0 from '../../src/providers/auth0.js'
import Authentik from '../../src/providers/authentik.js'
import Cognito from '../../src/providers/cognito.js'
import Discord from '../../src/providers/discord.js'
import Dropbox from '../../src/providers/dropbox.js'
import Facebook from '../../src/providers/facebook.js'
import GitHub from '../../src/providers/github.js'
import GitLab from '../../src/providers/gitlab.js'
import Google from '../../src/providers/google.js'
import Keycloak from '../../src/providers/keycloak.js'
import LinkedIn from '../../src/providers/linkedin.js'
import MicrosoftEntraID from '../../src/providers/microsoft-entra-id.js'
import Okta from '../../src/providers/okta.js'
import Reddit from '../../src/providers/reddit.js'
import Slack from '../../src/providers/slack.js'
import Spotify from '../../src/providers/spotify.js'
import Twitch from '../../src/providers/twitch.js'
import Twitter from '../../src/providers/twitter.js'
import Zitadel from '../../src/providers/zitadel.js'
import {
  normalizeOAuthProvider,
  oauthRedirectUri,
  type OAuthConfigOfAnyProfile,
} from '../../src/providers-internal/normalize-oauth.js'
import OAuth, { type GenericOAuthOptions } from '../../src/providers/oauth.js'
import OIDC from '../../src/providers/oidc.js'
import { readEndpoint } from '../../src/providers-internal/oauth-endpoint.js'
import type { Provider } from '../../src/types/providers.js'
import { customFetch, type FetchFunction } from '../../src/types/symbols.js'

const urls = (id: string) => ({
  signinUrl: `https://app.example.test/auth/signin/${id}`,
  callbackUrl: `https://app.example.test/auth/callback/${id}`,
})
const normalize = (provider: OAuthConfigOfAnyProfile, redirectProxyUrl?: string) =>
  normalizeOAuthProvider(provider, { ...urls(provider.id), redirectProxyUrl })
const plain = (options: Partial<GenericOAuthOptions> = {}) =>
  OAuth({
    id: 'plain',
    name: 'Plain',
    clientId: 'id',
    clientSecret: 'secret',
    authorization: 'https://idp.example.test/authorize',
    token: 'https://idp.example.test/token',
    ...options,
  })

describe('normalizeOAuthProvider', () => {
  it("merges the user's authorization params over the factory's, keeping its URL and scope", () => {
    const provider = normalize(
      GitHub({ clientId: 'id', clientSecret: 'secret', authorization: { params: { allow_signup: 'false' } } }),
    )
    expect(readEndpoint(provider.authorization)).toEqual({
      url: 'https://github.com/login/oauth/authorize',
      params: { scope: 'read:user user:email', allow_signup: 'false' },
    })
    expect(readEndpoint(provider.userinfo).request).toBeTypeOf('function')
  })

  it('reads query parameters written into an endpoint URL as params, and sends objects as JSON', () => {
    const provider = normalize(
      plain({
        authorization: {
          url: 'https://idp.example.test/authorize?scope=a+b&prompt=login',
          params: { prompt: 'none', claims: '{"id_token":{}}' },
        },
      }),
    )
    expect(readEndpoint(provider.authorization).params).toEqual({
      scope: 'a b',
      prompt: 'none',
      claims: '{"id_token":{}}',
    })
  })

  it("defaults the checks to PKCE and keeps a provider's own", () => {
    expect(normalize(plain()).checks).toEqual(['pkce'])
    expect(normalize(Apple({ clientId: 'id', clientSecret: 'jwt' })).checks).toEqual(['nonce', 'state'])
  })

  it('adds state and the proxied redirect URI when a redirect proxy is configured', () => {
    const provider = normalize(plain(), 'https://proxy.example.test/api/auth/')
    expect(provider.checks).toEqual(['pkce', 'state'])
    expect(oauthRedirectUri(provider)).toBe('https://proxy.example.test/api/auth/callback/plain')
    expect(oauthRedirectUri(normalize(plain()))).toBe('https://app.example.test/auth/callback/plain')
  })

  it('lets a provider override the global redirect proxy, and uses none for form_post providers', () => {
    expect(
      normalize(plain({ redirectProxyUrl: 'https://own-proxy.example.test/auth' }), 'https://proxy.example.test/auth')
        .redirectProxyUrl,
    ).toBe('https://own-proxy.example.test/auth/callback/plain')
    const apple = normalize(Apple({ clientId: 'id', clientSecret: 'jwt' }), 'https://proxy.example.test/auth')
    expect(apple.redirectProxyUrl).toBeUndefined()
  })

  it("keeps the user's customFetch and fills in the default profile() and account()", () => {
    const send: FetchFunction = (input, init) => fetch(input, init)
    const provider = normalize(
      OIDC({ id: 'corp', name: 'Corp', issuer: 'https://sso.example.test', clientId: 'id', [customFetch]: send }),
    )
    expect(provider[customFetch]).toBe(send)
    expect(
      provider.profile?.({ sub: 'abc', name: 'N', email: 'e@example.test', picture: 'https://p.example.test' }, {}),
    ).toEqual({ id: 'abc', name: 'N', email: 'e@example.test', image: 'https://p.example.test' })
    expect(provider.account?.({ access_token: 'a', token_type: 'bearer', expires_in: 5, extra: 'x' })).toEqual({
      access_token: 'a',
      token_type: 'bearer',
    })
  })

  it('refuses a nonce check on a plain OAuth 2 provider, and unknown checks', () => {
    expect(() => normalize(plain({ checks: ['nonce'] }))).toThrow(InvalidCheck)
    expect(() => normalize(plain({ checks: ['pkce', 'bogus' as 'pkce'] }))).toThrow(InvalidCheck)
  })

  it('refuses providers it could never reach', () => {
    expect(() =>
      normalize(OAuth({ id: 'x', name: 'X', clientId: 'id', authorization: 'https://idp.example.test/authorize' })),
    ).toThrow(InvalidEndpoints)
    expect(() => normalize({ id: 'y', name: 'Y', type: 'oidc', clientId: 'id' })).toThrow(InvalidEndpoints)
  })

  it('refuses plain http except on loopback hosts', () => {
    expect(() => normalize(OIDC({ id: 'a', name: 'A', issuer: 'http://sso.example.test', clientId: 'id' }))).toThrow(
      InvalidEndpoints,
    )
    expect(() => normalize(plain({ token: 'http://idp.example.test/token' }))).toThrow(InvalidEndpoints)
    expect(normalize(OIDC({ id: 'b', name: 'B', issuer: 'http://127.0.0.1:8080', clientId: 'id' })).issuer).toBe(
      'http://127.0.0.1:8080',
    )
    expect(normalize(OIDC({ id: 'c', name: 'C', issuer: 'http://localhost:8080/realms/x', clientId: 'id' })).type).toBe(
      'oidc',
    )
  })

  it('refuses client settings it cannot honour, naming the option', () => {
    expect(() => normalize(Google({}))).toThrow(/clientId/)
    expect(() => normalize(plain({ client: { token_endpoint_auth_method: 'private_key_jwt' } }))).toThrow(
      InvalidProvider,
    )
    expect(() =>
      normalize(plain({ clientSecret: undefined, client: { token_endpoint_auth_method: 'client_secret_post' } })),
    ).toThrow(/clientSecret/)
    expect(() =>
      normalize(
        OIDC({
          id: 'h',
          name: 'H',
          issuer: 'https://sso.example.test',
          clientId: 'id',
          client: { id_token_signed_response_alg: 'HS256' },
        }),
      ),
    ).toThrow(/clientSecret/)
    expect(() =>
      normalize(
        OIDC({
          id: 'n',
          name: 'N',
          issuer: 'https://sso.example.test',
          clientId: 'id',
          client: { id_token_signed_response_alg: 'none' },
        }),
      ),
    ).toThrow(InvalidProvider)
  })
})

describe('the built-in vendors', () => {
  const factories: Record<
    string,
    (options: { clientId: string; clientSecret: string; issuer: string }) => OAuthConfigOfAnyProfile
  > = {
    apple: Apple,
    auth0: Auth0,
    authentik: Authentik,
    cognito: Cognito,
    discord: Discord,
    dropbox: Dropbox,
    facebook: Facebook,
    github: GitHub,
    gitlab: GitLab,
    google: Google,
    keycloak: Keycloak,
    linkedin: LinkedIn,
    'microsoft-entra-id': MicrosoftEntraID,
    okta: Okta,
    reddit: Reddit,
    slack: Slack,
    spotify: Spotify,
    twitch: Twitch,
    twitter: Twitter,
    zitadel: Zitadel,
  }

  it('fit AuthConfig.providers, called or not (a type check as much as a test)', () => {
    const providers: Provider[] = [
      GitHub,
      Google({ clientId: 'id' }),
      Apple,
      Twitter({ version: '2.0' }),
      MicrosoftEntraID({ tenantId: 'contoso.example' }),
    ]
    expect(providers.map((entry) => (typeof entry === 'function' ? entry() : entry).id)).toEqual([
      'github',
      'google',
      'apple',
      'twitter',
      'microsoft-entra-id',
    ])
  })

  it.each(Object.entries(factories))('%s resolves under its own id', (id, factory) => {
    const resolved = normalize(factory({ clientId: 'id', clientSecret: 'secret', issuer: 'https://idp.example.test' }))
    expect(resolved.id).toBe(id)
    expect(resolved.callbackUrl).toBe(`https://app.example.test/auth/callback/${id}`)
  })
})

describe('normalizeOAuthProvider on its own output', () => {
  it('changes nothing, so resolving twice is harmless', () => {
    const once = normalize(GitHub({ clientId: 'id', clientSecret: 'secret' }), 'https://proxy.example.test/auth')
    const twice = normalizeOAuthProvider(once, {
      signinUrl: once.signinUrl,
      callbackUrl: once.callbackUrl,
      redirectProxyUrl: 'https://proxy.example.test/auth',
    })
    expect({ ...twice, profile: undefined, account: undefined }).toEqual({
      ...once,
      profile: undefined,
      account: undefined,
    })
  })
})
