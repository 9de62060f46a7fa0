/**
 * The validation results of `useSignIn` / `useSignOut` (src/frameworks/qwik/input.ts): what reaches the app as
 * `{ failed: true, fieldErrors, formErrors }` for each missing or malformed field. The same results through a real
 * Qwik City app are checked in qwik-app.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { checkSignInInput, checkSignOutInput, isOwnDestination, messages } from '../../../src/frameworks/qwik/input.js'

const origin = 'http://app.test'
const providers = ['credentials', 'oidc']
const noErrors = { authorizationParams: undefined, options: undefined, providerId: undefined, redirectTo: undefined }

describe('useSignIn input', () => {
  it('accepts a provider id, a path, authorization parameters in each form, and passes other string fields on', () => {
    for (const authorizationParams of [
      'prompt=login&login_hint=a',
      new URLSearchParams({ prompt: 'login', login_hint: 'a' }),
      { prompt: 'login', login_hint: 'a' },
    ]) {
      const checked = checkSignInInput(
        { providerId: 'oidc', redirectTo: '/after', authorizationParams, username: 'alice', count: 3 },
        providers,
        origin,
      )
      expect(checked.ok).toBe(true)
      if (!checked.ok) continue
      expect(checked.value.providerId).toBe('oidc')
      expect(checked.value.redirectTo).toBe('/after')
      expect(Object.fromEntries(checked.value.authorizationParams)).toEqual({ prompt: 'login', login_hint: 'a' })
      // Only string fields go to the provider; the action's own fields never do.
      expect(checked.value.fields).toEqual([['username', 'alice']])
    }
  })

  it('options.redirectTo wins over redirectTo; an absolute URL of the app origin is accepted', () => {
    const checked = checkSignInInput(
      { providerId: 'credentials', redirectTo: '/a', options: { redirectTo: `${origin}/b`, other: 1 } },
      providers,
      origin,
    )
    expect(checked).toMatchObject({ ok: true, value: { redirectTo: `${origin}/b` } })
  })

  it("passes the keys of options to the provider, as @auth/qwik does (an Auth.js form's options.username)", () => {
    const checked = checkSignInInput(
      {
        providerId: 'credentials',
        options: { username: 'alice', password: 'pw', redirectTo: '/after', csrfToken: 'forged', remember: true },
      },
      providers,
      origin,
    )
    expect(checked.ok).toBe(true)
    if (!checked.ok) return
    expect(checked.value.redirectTo).toBe('/after')
    // String keys only, never redirectTo or the action's own fields.
    expect(checked.value.fields).toEqual([
      ['username', 'alice'],
      ['password', 'pw'],
    ])
  })

  it('a missing, non-string or unknown providerId is a providerId field error', () => {
    const cases: Array<[unknown, string]> = [
      [undefined, messages.providerRequired],
      ['', messages.providerRequired],
      [7, messages.providerNotString],
      [['oidc'], messages.providerNotString],
      ['github', messages.providerUnknown],
    ]
    for (const [providerId, message] of cases) {
      expect(checkSignInInput({ providerId }, providers, origin)).toEqual({
        ok: false,
        errors: { fieldErrors: { ...noErrors, providerId: [message] }, formErrors: [] },
      })
    }
  })

  it('a redirectTo off this site (other origin, protocol-relative, backslash trick, javascript:) or not a string is a redirectTo field error', () => {
    for (const redirectTo of [
      'https://evil.test/x',
      '//evil.test/x',
      '/\\evil.test',
      'javascript:alert(1)',
      'http://app.test.evil.test/',
    ]) {
      expect(checkSignInInput({ providerId: 'oidc', redirectTo }, providers, origin), redirectTo).toEqual({
        ok: false,
        errors: { fieldErrors: { ...noErrors, redirectTo: [messages.redirectOffSite] }, formErrors: [] },
      })
    }
    expect(checkSignInInput({ providerId: 'oidc', redirectTo: 42 }, providers, origin)).toEqual({
      ok: false,
      errors: { fieldErrors: { ...noErrors, redirectTo: [messages.redirectNotString] }, formErrors: [] },
    })
  })

  it('malformed authorizationParams and options are field errors of their own, reported together with the others', () => {
    const checked = checkSignInInput(
      { providerId: 'nope', authorizationParams: { nested: { a: '1' } }, options: 'x' },
      providers,
      origin,
    )
    expect(checked).toEqual({
      ok: false,
      errors: {
        fieldErrors: {
          ...noErrors,
          providerId: [messages.providerUnknown],
          authorizationParams: [messages.authorizationParams],
          options: [messages.optionsNotObject],
        },
        formErrors: [],
      },
    })
    expect(checkSignInInput({ providerId: 'oidc', options: { redirectTo: '//evil.test' } }, providers, origin)).toEqual(
      { ok: false, errors: { fieldErrors: { ...noErrors, options: [messages.optionsRedirect] }, formErrors: [] } },
    )
    expect(checkSignInInput({ providerId: 'oidc', authorizationParams: 5 }, providers, origin)).toEqual({
      ok: false,
      errors: { fieldErrors: { ...noErrors, authorizationParams: [messages.authorizationParams] }, formErrors: [] },
    })
  })

  it('input that is not an object is a form error', () => {
    for (const data of [null, 'providerId=oidc', [1, 2], 3]) {
      expect(checkSignInInput(data, providers, origin)).toEqual({
        ok: false,
        errors: { fieldErrors: noErrors, formErrors: [messages.notAnObject] },
      })
    }
  })
})

describe('useSignOut input', () => {
  it('accepts no input, an empty form, or a path', () => {
    expect(checkSignOutInput(undefined, origin)).toEqual({ ok: true, value: { redirectTo: undefined } })
    expect(checkSignOutInput({}, origin)).toEqual({ ok: true, value: { redirectTo: undefined } })
    expect(checkSignOutInput({ redirectTo: '/bye' }, origin)).toEqual({ ok: true, value: { redirectTo: '/bye' } })
  })

  it('a redirectTo off this site or not a string is a redirectTo field error; a non-object input is a form error', () => {
    expect(checkSignOutInput({ redirectTo: 'https://evil.test' }, origin)).toEqual({
      ok: false,
      errors: { fieldErrors: { redirectTo: [messages.redirectOffSite] }, formErrors: [] },
    })
    expect(checkSignOutInput({ redirectTo: ['/a'] }, origin)).toEqual({
      ok: false,
      errors: { fieldErrors: { redirectTo: [messages.redirectNotString] }, formErrors: [] },
    })
    expect(checkSignOutInput('x', origin)).toEqual({
      ok: false,
      errors: { fieldErrors: { redirectTo: undefined }, formErrors: [messages.notAnObject] },
    })
  })
})

it('isOwnDestination: paths and URLs of the origin only', () => {
  expect(isOwnDestination('/', origin)).toBe(true)
  expect(isOwnDestination(`${origin}/x?y=1`, origin)).toBe(true)
  expect(isOwnDestination('relative', origin)).toBe(false)
  expect(isOwnDestination('//evil.test', origin)).toBe(false)
})
