/** One table decides how every error type is shown; the two places that used to decide it separately now read it. */
import { describe, expect, it } from 'vitest'
import { errorFromType } from '../../src/core/error-response.js'
import {
  AuthError,
  errorPageValue,
  errorPresentations,
  InvalidProvider,
  isClientError,
  type ErrorType,
} from '../../src/errors.js'

const signInValues = [
  'Signin',
  'OAuthSignin',
  'OAuthCallbackError',
  'OAuthCreateAccount',
  'EmailCreateAccount',
  'Callback',
  'OAuthAccountNotLinked',
  'EmailSignin',
  'CredentialsSignin',
  'SessionRequired',
]
const errorValues = ['Configuration', 'AccessDenied', 'Verification']

describe('the error table', () => {
  it.each(Object.keys(errorPresentations) as ErrorType[])(
    '%s: a thrown error and a machine error type are shown alike, with a spec value',
    (type) => {
      const thrown = new AuthError('x')
      thrown.type = type
      const fromMachine = errorFromType(type)
      expect(errorPageValue(fromMachine)).toEqual(errorPageValue(thrown))
      const { page, value } = errorPresentations[type]
      expect(page === 'signIn' ? signInValues : errorValues).toContain(value)
      expect(fromMachine.kind).toBe(page)
    },
  )

  it('InvalidProvider is a configuration error wherever it is raised', () => {
    expect(errorPageValue(new InvalidProvider('no such provider'))).toEqual({ page: 'error', value: 'Configuration' })
    expect(errorPageValue(errorFromType('InvalidProvider'))).toEqual({ page: 'error', value: 'Configuration' })
    expect(isClientError(new InvalidProvider('x'))).toBe(false)
  })

  it('anything that is not an AuthError is a configuration error', () => {
    expect(errorPageValue(new TypeError('boom'))).toEqual({ page: 'error', value: 'Configuration' })
  })
})
