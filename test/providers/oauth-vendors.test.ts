/**
 * The built-in plain OAuth 2 vendors, each signed in against a fake of its own endpoints (see fake-vendor-server.ts
 * for why a fake): the URLs it calls, how it authenticates, and how its token and profile shapes are mapped.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { InvalidProvider, OAuthCallbackError } from '../../src/errors.js'
import Discord from '../../src/providers/discord.js'
import Dropbox from '../../src/providers/dropbox.js'
import Facebook from '../../src/providers/facebook.js'
import GitHub from '../../src/providers/github.js'
import GitLab from '../../src/providers/gitlab.js'
import type { OAuthConfigOfAnyProfile } from '../../src/providers-internal/normalize-oauth.js'
import Reddit from '../../src/providers/reddit.js'
import Spotify from '../../src/providers/spotify.js'
import Twitter from '../../src/providers/twitter.js'
import { customFetch } from '../../src/types/symbols.js'
import { startFakeVendorServer, type FakeVendorServer } from './fake-vendor-server.js'
import { authorizeWithCode, clientId, clientSecret, resolveVendor, signInWithVendor } from './vendor-sign-in.js'

let fake: FakeVendorServer
beforeAll(async () => {
  fake = await startFakeVendorServer()
})
beforeEach(() => fake.reset())
afterAll(() => fake.close())

const credentials = () => ({ clientId, clientSecret, [customFetch]: fake.fetch })
// Compared literally, as a vendor that does not form-urldecode the Basic header would (see client-authentication.ts).
const basicAuthorization = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`
const token = (extra: Record<string, unknown> = {}) => ({
  json: { access_token: 'vendor-access-token', token_type: 'bearer', ...extra },
})

interface OAuthVendorCase {
  name: string
  provider: () => OAuthConfigOfAnyProfile
  authorizeAt: string
  serve: () => void
  user: Record<string, unknown>
  verify?: () => void
}

const cases: OAuthVendorCase[] = [
  {
    name: 'GitHub (no public e-mail: looked up in /user/emails)',
    provider: () => GitHub(credentials()),
    authorizeAt: 'https://github.com/login/oauth/authorize',
    serve: () => {
      fake.on('POST', 'https://github.com/login/oauth/access_token', () => token({ scope: 'read:user,user:email' }))
      fake.on('GET', 'https://api.github.com/user', () => ({
        json: { id: 583231, login: 'octocat', name: null, email: null, avatar_url: 'https://avatars.example/u/583231' },
      }))
      fake.on('GET', 'https://api.github.com/user/emails', () => ({
        json: [
          { email: 'unverified@example.test', primary: true, verified: false, visibility: 'private' },
          { email: 'Octo@Example.test', primary: false, verified: true, visibility: null },
        ],
      }))
    },
    user: { id: '583231', name: 'octocat', email: 'octo@example.test', image: 'https://avatars.example/u/583231' },
    verify: () =>
      expect(fake.requestsTo('https://api.github.com/user/emails')[0]?.headers.get('authorization')).toBe(
        'Bearer vendor-access-token',
      ),
  },
  {
    name: 'GitHub (public e-mail: no second request)',
    provider: () => GitHub(credentials()),
    authorizeAt: 'https://github.com/login/oauth/authorize',
    serve: () => {
      fake.on('POST', 'https://github.com/login/oauth/access_token', () => token())
      fake.on('GET', 'https://api.github.com/user', () => ({
        json: {
          id: 1,
          login: 'mona',
          name: 'Mona Lisa',
          email: 'mona@example.test',
          avatar_url: 'https://avatars.example/u/1',
        },
      }))
    },
    user: { id: '1', name: 'Mona Lisa', email: 'mona@example.test' },
    verify: () => expect(fake.requestsTo('https://api.github.com/user/emails')).toHaveLength(0),
  },
  {
    name: 'GitHub Enterprise Server (enterprise.baseUrl, API under /api/v3)',
    provider: () => GitHub({ ...credentials(), enterprise: { baseUrl: 'https://github.corp.example' } }),
    authorizeAt: 'https://github.corp.example/login/oauth/authorize',
    serve: () => {
      fake.on('POST', 'https://github.corp.example/login/oauth/access_token', () => token())
      fake.on('GET', 'https://github.corp.example/api/v3/user', () => ({
        json: {
          id: 9,
          login: 'corp',
          name: 'Corp User',
          email: 'corp@corp.example',
          avatar_url: 'https://github.corp.example/a/9',
        },
      }))
    },
    user: { id: '9', email: 'corp@corp.example' },
  },
  {
    name: 'GitLab (numeric id, token type "Bearer")',
    provider: () => GitLab({ ...credentials(), baseUrl: 'https://gitlab.example.test' }),
    authorizeAt: 'https://gitlab.example.test/oauth/authorize',
    serve: () => {
      fake.on('POST', 'https://gitlab.example.test/oauth/token', () =>
        token({ token_type: 'Bearer', expires_in: 7200, refresh_token: 'r', created_at: 1700000000 }),
      )
      fake.on('GET', 'https://gitlab.example.test/api/v4/user', () => ({
        json: {
          id: 42,
          username: 'tanuki',
          name: null,
          email: 'tanuki@example.test',
          avatar_url: 'https://gitlab.example.test/a.png',
        },
      }))
    },
    user: { id: '42', name: 'tanuki', email: 'tanuki@example.test', image: 'https://gitlab.example.test/a.png' },
  },
  {
    name: 'Discord (no avatar: default avatar from the snowflake id)',
    provider: () => Discord(credentials()),
    authorizeAt: 'https://discord.com/api/oauth2/authorize',
    serve: () => {
      fake.on('POST', 'https://discord.com/api/oauth2/token', () => token({ token_type: 'Bearer', expires_in: 604800 }))
      fake.on('GET', 'https://discord.com/api/users/@me', () => ({
        json: {
          id: '80351110224678912',
          username: 'nelly',
          global_name: 'Nelly',
          discriminator: '0',
          avatar: null,
          email: 'nelly@example.test',
          verified: true,
        },
      }))
    },
    user: {
      id: '80351110224678912',
      name: 'Nelly',
      email: 'nelly@example.test',
      image: 'https://cdn.discordapp.com/embed/avatars/5.png',
    },
  },
  {
    name: 'Twitter / X (OAuth 2, profile under data, user.fields and expansions)',
    provider: () =>
      Twitter({
        ...credentials(),
        version: '2.0',
        userinfo: { params: { 'user.fields': 'profile_image_url,description', expansions: 'pinned_tweet_id' } },
      }),
    authorizeAt: 'https://x.com/i/oauth2/authorize',
    serve: () => {
      fake.on('POST', 'https://api.x.com/2/oauth2/token', (request) =>
        request.headers.get('authorization') === basicAuthorization
          ? token({ expires_in: 7200, scope: 'users.read tweet.read offline.access' })
          : { status: 401, json: { error: 'unauthorized_client' } },
      )
      fake.on('GET', 'https://api.x.com/2/users/me', () => ({
        json: {
          data: {
            id: '2244994945',
            name: 'X Dev',
            username: 'XDevelopers',
            description: 'The voice of the X Dev team',
            pinned_tweet_id: '1',
            profile_image_url: 'https://pbs.example/x.jpg',
          },
          includes: { tweets: [{ id: '1', text: 'pinned post' }] },
        },
      }))
    },
    user: { id: '2244994945', name: 'X Dev', email: null, image: 'https://pbs.example/x.jpg' },
    verify: () => {
      const query = fake.requestsTo('https://api.x.com/2/users/me')[0]?.url.searchParams
      expect(query?.get('user.fields')).toBe('profile_image_url,description')
      expect(query?.get('expansions')).toBe('pinned_tweet_id')
    },
  },
  {
    name: 'Facebook (fields listed, picture nested, secret in the body)',
    provider: () => Facebook(credentials()),
    authorizeAt: 'https://www.facebook.com/v19.0/dialog/oauth',
    serve: () => {
      fake.on('POST', 'https://graph.facebook.com/oauth/access_token', (request) =>
        request.form.get('client_secret') === clientSecret
          ? token({ expires_in: 5183944 })
          : { status: 400, json: { error: { message: 'missing secret' } } },
      )
      fake.on('GET', 'https://graph.facebook.com/me', (request) => ({
        json:
          request.url.searchParams.get('fields') === 'id,name,email,picture'
            ? {
                id: '10158',
                name: 'Fay Book',
                email: 'fay@example.test',
                picture: { data: { url: 'https://fb.example/p.jpg', is_silhouette: false } },
              }
            : { id: '10158', name: 'Fay Book' },
      }))
    },
    user: { id: '10158', name: 'Fay Book', email: 'fay@example.test', image: 'https://fb.example/p.jpg' },
  },
  {
    name: 'Spotify (first image)',
    provider: () => Spotify(credentials()),
    authorizeAt: 'https://accounts.spotify.com/authorize',
    serve: () => {
      fake.on('POST', 'https://accounts.spotify.com/api/token', () => token({ token_type: 'Bearer', expires_in: 3600 }))
      fake.on('GET', 'https://api.spotify.com/v1/me', () => ({
        json: {
          id: 'wizzler',
          display_name: 'Wizzler',
          email: 'wizzler@example.test',
          images: [
            { url: 'https://i.scdn.example/big.jpg', height: 640, width: 640 },
            { url: 'https://i.scdn.example/small.jpg', height: 64, width: 64 },
          ],
        },
      }))
    },
    user: { id: 'wizzler', name: 'Wizzler', image: 'https://i.scdn.example/big.jpg' },
  },
  {
    name: 'Reddit (Basic auth, raw_json=1, state without PKCE)',
    provider: () => Reddit(credentials()),
    authorizeAt: 'https://www.reddit.com/api/v1/authorize',
    serve: () => {
      fake.on('POST', 'https://www.reddit.com/api/v1/access_token', (request) =>
        request.headers.get('authorization') === basicAuthorization
          ? token({ expires_in: 86400, scope: 'identity' })
          : { status: 401, json: { error: 'invalid_client' } },
      )
      fake.on('GET', 'https://oauth.reddit.com/api/v1/me', (request) => {
        const raw = request.url.searchParams.get('raw_json') === '1'
        return {
          json: {
            id: 't2_abc',
            name: 'spez',
            icon_img: raw ? 'https://styles.example/i.png?w=256&h=256' : 'https://styles.example/i.png?w=256&amp;h=256',
          },
        }
      })
    },
    user: { id: 't2_abc', name: 'spez', email: null, image: 'https://styles.example/i.png?w=256&h=256' },
  },
  {
    name: 'Dropbox (POST-only account endpoint, offline token)',
    provider: () => Dropbox(credentials()),
    authorizeAt: 'https://www.dropbox.com/oauth2/authorize',
    serve: () => {
      fake.on('POST', 'https://api.dropboxapi.com/oauth2/token', () =>
        token({ expires_in: 14400, refresh_token: 'r', account_id: 'dbid:AAH4', uid: '12345' }),
      )
      fake.on('POST', 'https://api.dropboxapi.com/2/users/get_current_account', (request) =>
        request.body === '' && !request.headers.has('content-type')
          ? {
              json: {
                account_id: 'dbid:AAH4',
                name: { display_name: 'Franz Ferdinand' },
                email: 'franz@example.test',
                email_verified: true,
                profile_photo_url: 'https://dl.example/photo',
              },
            }
          : { status: 400, json: { error_summary: 'Error in call: unexpected body' } },
      )
    },
    user: { id: 'dbid:AAH4', name: 'Franz Ferdinand', email: 'franz@example.test', image: 'https://dl.example/photo' },
  },
]

describe('built-in OAuth 2 vendors against a fake of their endpoints', () => {
  it.each(cases)('$name', async (vendor) => {
    vendor.serve()
    const provider = resolveVendor(vendor.provider())
    const { authorizationUrl, result } = await signInWithVendor(provider, authorizeWithCode('vendor-code'))
    expect(`${authorizationUrl.origin}${authorizationUrl.pathname}`).toBe(vendor.authorizeAt)
    expect(authorizationUrl.searchParams.get('client_id')).toBe(clientId)
    expect(result.user).toMatchObject(vendor.user)
    expect(result.account).toMatchObject({
      provider: provider.id,
      type: 'oauth',
      providerAccountId: vendor.user.id,
      token_type: 'bearer',
      access_token: 'vendor-access-token',
    })
    vendor.verify?.()
  })
})

describe('vendor quirks', () => {
  it('GitHub: an error answered with status 200 is refused with its error code', async () => {
    fake.on('POST', 'https://github.com/login/oauth/access_token', () => ({
      json: { error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.' },
    }))
    const sending = signInWithVendor(resolveVendor(GitHub(credentials())), authorizeWithCode('expired'))
    await expect(sending).rejects.toMatchObject({
      constructor: OAuthCallbackError,
      cause: { check: 'token_endpoint', status: 200, error: 'bad_verification_code' },
    })
  })

  it("GitHub: a callback whose iss is not GitHub's is refused (RFC 9207)", async () => {
    const sending = signInWithVendor(resolveVendor(GitHub(credentials())), authorizeWithCode('c'), {
      iss: 'https://evil.example/login/oauth',
    })
    await expect(sending).rejects.toMatchObject({
      constructor: OAuthCallbackError,
      cause: { check: 'iss', expected: 'https://github.com/login/oauth' },
    })
  })

  it('Twitter / X: asks for users.read tweet.read offline.access with PKCE and state', async () => {
    fake.on('POST', 'https://api.x.com/2/oauth2/token', () => token())
    fake.on('GET', 'https://api.x.com/2/users/me', () => ({ json: { data: { id: '1', name: 'n', username: 'u' } } }))
    const { authorizationUrl } = await signInWithVendor(resolveVendor(Twitter(credentials())), authorizeWithCode('c'))
    expect(authorizationUrl.searchParams.get('scope')).toBe('users.read tweet.read offline.access')
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256')
    expect(authorizationUrl.searchParams.has('state')).toBe(true)
  })

  it('Twitter / X: OAuth 1.0a is refused at configuration time', () => {
    expect(() => Twitter({ ...credentials(), version: '1.0A' })).toThrow(InvalidProvider)
  })

  it('Reddit: sends state and no PKCE challenge', async () => {
    fake.on('POST', 'https://www.reddit.com/api/v1/access_token', () => token())
    fake.on('GET', 'https://oauth.reddit.com/api/v1/me', () => ({ json: { id: 'x', name: 'y' } }))
    const { authorizationUrl } = await signInWithVendor(resolveVendor(Reddit(credentials())), authorizeWithCode('c'))
    expect(authorizationUrl.searchParams.has('state')).toBe(true)
    expect(authorizationUrl.searchParams.has('code_challenge')).toBe(false)
  })

  it('Dropbox: an unverified e-mail address is not offered to account linking', async () => {
    fake.on('POST', 'https://api.dropboxapi.com/oauth2/token', () => token())
    fake.on('POST', 'https://api.dropboxapi.com/2/users/get_current_account', () => ({
      json: { account_id: 'dbid:1', name: { display_name: 'D' }, email: 'd@example.test', email_verified: false },
    }))
    const { result } = await signInWithVendor(resolveVendor(Dropbox(credentials())), authorizeWithCode('c'))
    expect(result.user.email).toBeNull()
  })
})
