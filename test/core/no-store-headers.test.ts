/** Answers that carry a session or a CSRF token may be kept by no cache: the headers Auth.js sends. */
import { describe, expect, it } from 'vitest'
import { CookieJar, send, signIn, testConfig } from '../support/auth-harness.js'

describe('GET /session and GET /csrf', () => {
  it.each(['/auth/session', '/auth/csrf'])(
    '%s answers Cache-Control private, no-cache, no-store; Expires 0; Pragma no-cache',
    async (path) => {
      const config = testConfig()
      const jar = new CookieJar()
      await signIn(config, jar)
      const response = await send(config, path, { jar })
      expect(response.status).toBe(200)
      expect(response.headers.get('cache-control')).toBe('private, no-cache, no-store')
      expect(response.headers.get('expires')).toBe('0')
      expect(response.headers.get('pragma')).toBe('no-cache')
    },
  )
})
