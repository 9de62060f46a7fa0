/** authchart/express re-exports what @auth/express does, so an app's imports change only in their specifier. */
import * as authjsExpress from '@auth/express'
import { describe, expect, it } from 'vitest'
import * as authExpress from '../../src/frameworks/express.js'
import type { ExpressAuthConfig, GetSessionResult, Session } from '../../src/frameworks/express.js'
import type { AdapterAccountType } from '../../adapters/index.js'
import { AuthError, CredentialsSignin } from '../../src/errors.js'
import { customFetch } from '../../src/types/symbols.js'

describe('authchart/express exports', () => {
  it('has every run-time export of @auth/express', () => {
    const ours = Object.keys(authExpress)
    expect(Object.keys(authjsExpress).filter((name) => !ours.includes(name))).toEqual([])
  })

  it('re-exports the error classes and customFetch that @auth/express re-exports', () => {
    expect(authExpress.AuthError).toBe(AuthError)
    expect(authExpress.CredentialsSignin).toBe(CredentialsSignin)
    expect(authExpress.customFetch).toBe(customFetch)
    expect(typeof authExpress.ExpressAuth).toBe('function')
    expect(typeof authExpress.getSession).toBe('function')
  })

  it('types an ExpressAuthConfig, a Session and a GetSessionResult (`npm run typecheck` checks these lines)', async () => {
    const config: ExpressAuthConfig = { providers: [] }
    const session: Session = { expires: new Date(0).toISOString() }
    const result: GetSessionResult = Promise.resolve(session)
    const accountType: AdapterAccountType = 'oidc'
    expect([config.providers, (await result)?.expires, accountType]).toEqual([[], '1970-01-01T00:00:00.000Z', 'oidc'])
  })
})
