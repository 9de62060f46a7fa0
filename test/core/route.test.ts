import { describe, expect, it } from 'vitest'
import { UnknownAction } from '../../src/errors.js'
import { routeOf } from '../../src/core/request.js'

describe('routeOf', () => {
  it('splits the path under the base path into action and provider id', () => {
    expect(routeOf('/auth/session', '/auth')).toEqual({ action: 'session' })
    expect(routeOf('/auth/session/', '/auth')).toEqual({ action: 'session' })
    expect(routeOf('/auth//csrf//', '/auth')).toEqual({ action: 'csrf' })
    expect(routeOf('/auth/callback/github', '/auth')).toEqual({ action: 'callback', providerId: 'github' })
    expect(routeOf('/auth/signin/my%20idp/', '/auth')).toEqual({ action: 'signin', providerId: 'my idp' })
    expect(routeOf('/session', '')).toEqual({ action: 'session' })
    expect(routeOf('/api/auth/webauthn-options/passkey', '/api/auth')).toEqual({
      action: 'webauthn-options',
      providerId: 'passkey',
    })
  })

  it.each([
    ['/other/session', 'not under the base path'],
    ['/authx/session', 'not under the base path'],
    ['/auth', 'unknown action'],
    ['/auth/', 'unknown action'],
    ['/auth/nope', 'unknown action'],
    ['/auth/__proto__', 'unknown action'],
    ['/auth/session/github', 'takes no provider id'],
    ['/auth/csrf/a/b', 'takes no provider id'],
    ['/auth/callback/github/extra', 'too many path segments'],
    ['/auth/callback//github', 'too many path segments'],
    ['/auth/signin/%E0%A4%A', 'not valid URL encoding'],
  ])('refuses %s (%s)', (pathname, reason) => {
    expect(() => routeOf(pathname, '/auth')).toThrow(UnknownAction)
    expect(() => routeOf(pathname, '/auth')).toThrow(reason)
  })
})
