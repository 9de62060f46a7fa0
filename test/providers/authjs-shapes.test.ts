/**
 * Endpoint settings are written in the shape Auth.js's provider has them: a plain URL string (scope in the query)
 * where Auth.js uses one, `{ url, params }` where it does. An app that reads `GitLab().authorization` or compares it,
 * as Auth.js's own provider tests do, sees the same value. Option merging reads either shape (the last test).
 */
import { describe, expect, it } from 'vitest'
import Discord from '../../src/providers/discord.js'
import Dropbox from '../../src/providers/dropbox.js'
import Facebook from '../../src/providers/facebook.js'
import GitLab from '../../src/providers/gitlab.js'
import MicrosoftEntraID from '../../src/providers/microsoft-entra-id.js'
import Reddit from '../../src/providers/reddit.js'
import Spotify from '../../src/providers/spotify.js'
import Twitter from '../../src/providers/twitter.js'
import { resolveVendor } from './vendor-sign-in.js'

const stringShaped = [
  {
    provider: GitLab,
    authorization: 'https://gitlab.com/oauth/authorize?scope=read_user',
    token: 'https://gitlab.com/oauth/token',
    userinfo: 'https://gitlab.com/api/v4/user',
  },
  { provider: Discord, token: 'https://discord.com/api/oauth2/token', userinfo: 'https://discord.com/api/users/@me' },
  {
    provider: Spotify,
    authorization: 'https://accounts.spotify.com/authorize?scope=user-read-email',
    token: 'https://accounts.spotify.com/api/token',
    userinfo: 'https://api.spotify.com/v1/me',
  },
  {
    provider: Reddit,
    authorization: 'https://www.reddit.com/api/v1/authorize?scope=identity',
    token: 'https://www.reddit.com/api/v1/access_token',
  },
  {
    provider: Twitter,
    token: 'https://api.x.com/2/oauth2/token',
    userinfo: 'https://api.x.com/2/users/me?user.fields=profile_image_url',
  },
  { provider: Dropbox, token: 'https://api.dropboxapi.com/oauth2/token' },
  { provider: Facebook, token: 'https://graph.facebook.com/oauth/access_token' },
]

const objectShaped = [
  {
    provider: Discord,
    authorization: { url: 'https://discord.com/api/oauth2/authorize', params: { scope: 'identify email' } },
  },
  {
    provider: Dropbox,
    authorization: {
      url: 'https://www.dropbox.com/oauth2/authorize',
      params: { token_access_type: 'offline', scope: 'account_info.read' },
    },
  },
]

describe('endpoint shapes as Auth.js writes them', () => {
  it.each(objectShaped)('$authorization.url as { url, params }', ({ provider, authorization }) => {
    expect(provider({ clientId: 'id', clientSecret: 'secret' }).authorization).toEqual(authorization)
  })

  it.each(stringShaped)('$token as a URL string', ({ provider, ...expected }) => {
    const config = provider({ clientId: 'id', clientSecret: 'secret' })
    for (const [key, value] of Object.entries(expected)) expect(config[key as keyof typeof config]).toBe(value)
  })

  it('GitLab on a self-managed instance: the same strings on the instance URL', () => {
    const config = GitLab({ baseUrl: 'https://gitlab.example.com' })
    expect([config.id, config.name, config.type]).toEqual(['gitlab', 'GitLab', 'oauth'])
    expect(config.authorization).toBe('https://gitlab.example.com/oauth/authorize?scope=read_user')
    expect(config.token).toBe('https://gitlab.example.com/oauth/token')
    expect(config.userinfo).toBe('https://gitlab.example.com/api/v4/user')
  })

  it('Microsoft Entra ID names its issuer in options too, the common tenant by default', () => {
    expect(MicrosoftEntraID({ clientId: 'id', clientSecret: 'secret' }).options?.issuer).toBe(
      'https://login.microsoftonline.com/common/v2.0',
    )
    const tenant = '8a2a7b4d-1234-5678-9abc-def012345678'
    expect(MicrosoftEntraID({ clientId: 'id', tenantId: tenant }).options?.issuer).toBe(
      `https://login.microsoftonline.com/${tenant}/v2.0`,
    )
    expect(
      MicrosoftEntraID({ clientId: 'id', issuer: 'https://login.microsoftonline.com/x/v2.0' }).options?.issuer,
    ).toBe('https://login.microsoftonline.com/x/v2.0')
  })

  it('a string-shaped default still merges with params from the app (scope replaced, URL kept)', () => {
    const resolved = resolveVendor(GitLab({ clientId: 'id', authorization: { params: { scope: 'read_user openid' } } }))
    expect(resolved.authorization).toMatchObject({
      url: 'https://gitlab.com/oauth/authorize',
      params: { scope: 'read_user openid' },
    })
  })
})
