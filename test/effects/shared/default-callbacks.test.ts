/**
 * The built-in session callback answers what reaches the client, whoever calls it: the effects skip the call when the
 * app sets no callback, but a call (an update, a test or app that spies on or wraps the default, as Auth.js's own
 * tests do) must answer the same session, not the database row it was handed.
 */
import { describe, expect, it } from 'vitest'
import { defaultSessionCallback } from '../../../src/effects/shared/default-callbacks.js'

const user = {
  id: 'u1',
  name: 'Ada',
  email: 'ada@example.test',
  image: 'https://example.test/ada.png',
  emailVerified: null,
}
const expires = new Date('2030-01-02T03:04:05.000Z')

describe('the default session callback', () => {
  it('keeps only the name, e-mail and image of a database row, and its expiry as JSON carries it', () => {
    const row = { sessionToken: 'secret-token', userId: 'u1', expires, user }
    expect(defaultSessionCallback({ session: row })).toEqual({
      user: { name: 'Ada', email: 'ada@example.test', image: 'https://example.test/ada.png' },
      expires: '2030-01-02T03:04:05.000Z',
    })
  })

  it('answers a session built from a token as it is, with a failed refresh kept', () => {
    const session = {
      user: { name: 'Ada', email: 'ada@example.test', image: undefined },
      expires: '2030-01-02T03:04:05.000Z',
      error: 'RefreshTokenError',
    }
    expect(defaultSessionCallback({ session })).toEqual(session)
  })

  it('answers a null in the row as null, as Auth.js does (a user without a name or picture)', () => {
    const session = { expires, user: { ...user, name: null, image: null } }
    const answered = defaultSessionCallback({ session })
    expect(answered).toEqual({
      user: { name: null, email: 'ada@example.test', image: null },
      expires: '2030-01-02T03:04:05.000Z',
    })
    expect(JSON.stringify(answered.user)).toBe('{"name":null,"email":"ada@example.test","image":null}')
  })
})
