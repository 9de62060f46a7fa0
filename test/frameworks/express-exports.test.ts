/** authchart/express re-exports what @auth/express does, so an app's imports change only in their specifier. */
import { describe, expect, it } from 'vitest'
import * as authExpress from '../../src/frameworks/express.js'
import type { ExpressAuthConfig, Session } from '../../src/frameworks/express.js'
import { AuthError, CredentialsSignin } from '../../src/errors.js'
import { customFetch } from '../../src/types/symbols.js'

describe('authchart/express exports', () => {
  it('re-exports the error classes and customFetch that @auth/express re-exports', () => {
    expect(authExpress.AuthError).toBe(AuthError)
    expect(authExpress.CredentialsSignin).toBe(CredentialsSignin)
    expect(authExpress.customFetch).toBe(customFetch)
    expect(typeof authExpress.ExpressAuth).toBe('function')
    expect(typeof authExpress.getSession).toBe('function')
  })

  it('types an ExpressAuthConfig and a Session', () => {
    const config: ExpressAuthConfig = { providers: [] }
    const session: Session = { expires: new Date(0).toISOString() }
    expect([config.providers, session.expires]).toEqual([[], '1970-01-01T00:00:00.000Z'])
  })
})
