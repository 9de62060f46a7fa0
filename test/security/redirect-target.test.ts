import { describe, expect, it } from 'vitest'
import { decideDefaultRedirect, defaultRedirect, isNavigableUrl } from '../../src/security/redirect-target.js'

const baseUrl = 'https://app.example'

describe('the default redirect decision', () => {
  it('keeps paths and same-origin URLs, and sends everything else to the base URL', () => {
    expect(defaultRedirect({ url: '/dashboard?tab=1', baseUrl })).toBe('https://app.example/dashboard?tab=1')
    expect(defaultRedirect({ url: 'https://app.example/a', baseUrl })).toBe('https://app.example/a')
    expect(defaultRedirect({ url: 'https://evil.example/a', baseUrl })).toBe(baseUrl)
    expect(defaultRedirect({ url: '//evil.example/a', baseUrl })).toBe(baseUrl)
    expect(defaultRedirect({ url: 'javascript:alert(1)', baseUrl })).toBe(baseUrl)
    expect(defaultRedirect({ url: 'https://user:pw@app.example/', baseUrl })).toBe(baseUrl)
    expect(defaultRedirect({ url: '/\\evil.example', baseUrl })).toBe('https://app.example')
  })

  it('vouches only for targets that came out of an http(s) parse; the caller vets the rest', () => {
    expect(decideDefaultRedirect('/a', baseUrl)).toEqual({ target: 'https://app.example/a', navigable: true })
    expect(decideDefaultRedirect('https://app.example/b', baseUrl)).toEqual({
      target: 'https://app.example/b',
      navigable: true,
    })
    // The fallback is the base URL as configured, not a parsed one: not vouched for.
    expect(decideDefaultRedirect('https://evil.example/', baseUrl)).toEqual({ target: baseUrl, navigable: false })
    // A base that does not parse, or is no http(s) URL, never makes a target navigable.
    expect(decideDefaultRedirect('/a', 'not a url')).toEqual({ target: 'not a url', navigable: false })
    expect(decideDefaultRedirect('a\u0000b', 'ftp://files.example')).toEqual({
      target: 'ftp://files.example',
      navigable: false,
    })
    expect(isNavigableUrl('ftp://files.example')).toBe(false)
  })

  it('decides each base on its own when several alternate (the parsed base is remembered)', () => {
    for (let round = 0; round < 3; round++) {
      expect(defaultRedirect({ url: 'https://one.example/x', baseUrl: 'https://one.example' })).toBe(
        'https://one.example/x',
      )
      expect(defaultRedirect({ url: 'https://one.example/x', baseUrl: 'https://two.example' })).toBe(
        'https://two.example',
      )
      expect(defaultRedirect({ url: '/y', baseUrl: 'http://two.example:8080' })).toBe('http://two.example:8080/y')
    }
  })
})
