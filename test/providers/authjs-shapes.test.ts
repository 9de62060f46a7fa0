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
import Reddit from '../../src/providers/reddit.js'
import Spotify from '../../src/providers/spotify.js'
import { resolveVendor } from './vendor-sign-in.js'

const stringShaped = [
  { provider: GitLab, authorization: 'https://gitlab.com/oauth/authorize?scope=read_user', token: 'https://gitlab.com/oauth/token', userinfo: 'https://gitlab.com/api/v4/user' },
  { provider: Discord, token: 'https://discord.com/api/oauth2/token', userinfo: 'https://discord.com/api/users/@me' },
  { provider: Spotify, authorization: 'https://accounts.spotify.com/authorize?scope=user-read-email', token: 'https://accounts.spotify.com/api/token', userinfo: 'https://api.spotify.com/v1/me' },
  { provider: Reddit, authorization: 'https://www.reddit.com/api/v1/authorize?scope=identity', token: 'https://www.reddit.com/api/v1/access_token' },
  { provider: Dropbox, token: 'https://api.dropboxapi.com/oauth2/token' },
  { provider: Facebook, token: 'https://graph.facebook.com/oauth/access_token' },
]

const objectShaped = [
  { provider: Discord, authorization: { url: 'https://discord.com/api/oauth2/authorize', params: { scope: 'identify email' } } },
  { provider: Dropbox, authorization: { url: 'https://www.dropbox.com/oauth2/authorize', params: { token_access_type: 'offline', scope: 'account_info.read' } } },
]

describe('endpoint shapes as Auth.js writes them', () => {
  it.each(objectShaped)('$authorization.url as { url, params }', ({ provider, authorization }) => {
    expect(provider({ clientId: 'id', clientSecret: 'secret' }).authorization).toEqual(authorization)
  })

  it.each(stringShaped)('$token as a URL string', ({ provider, ...expected }) => {
    const config = provider({ clientId: 'id', clientSecret: 'secret' })
    for (const [key, value] of Object.entries(expected)) expect(config[key as keyof typeof config]).toBe(value)
  })

  it('a string-shaped default still merges with params from the app (scope replaced, URL kept)', () => {
    const resolved = resolveVendor(GitLab({ clientId: 'id', authorization: { params: { scope: 'read_user openid' } } }))
    expect(resolved.authorization).toMatchObject({ url: 'https://gitlab.com/oauth/authorize', params: { scope: 'read_user openid' } })
  })
})
