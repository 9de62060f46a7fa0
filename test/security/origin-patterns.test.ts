/** The redirect-proxy allow-list's patterns: exact origins and one leading wildcard, nothing looser. */
import { describe, expect, it } from 'vitest'
import { resolveConfig } from '../../src/core/config.js'
import { InvalidConfig } from '../../src/errors.js'
import { compileOriginAllowList, isUsableHost, parseOriginPattern } from '../../src/security/origin.js'

function allowList(entries: string[]) {
  const invalid: string[] = []
  const allows = compileOriginAllowList(entries, (entry) => invalid.push(entry))
  return { allows, invalid }
}

describe('redirect-proxy allow-list', () => {
  const { allows } = allowList(['https://app.example.com', 'https://*.preview.example.com', 'http://localhost:3000'])

  it.each([
    ['https://app.example.com', true],
    ['https://app.example.com:443', true],
    ['https://a.preview.example.com', true],
    ['https://a.b.preview.example.com', true],
    ['http://localhost:3000', true],
    ['https://preview.example.com', false],
    ['https://evilpreview.example.com', false],
    ['https://a.preview.example.com.evil.test', false],
    ['http://a.preview.example.com', false],
    ['https://a.preview.example.com:8443', false],
    ['http://localhost:3001', false],
    ['https://user@app.example.com', false],
    ['not a url', false],
  ])('%s → %s', (origin, expected) => {
    expect(allows(origin)).toBe(expected)
  })

  it('refuses patterns that would allow too much or are not origins', () => {
    expect(
      allowList(['https://*.com', 'https://app.example.com/path', 'ftp://x.example', 'https://*.*.example.com', '*'])
        .invalid,
    ).toHaveLength(5)
    expect(parseOriginPattern('http://*.localhost:3000')).toMatchObject({
      wildcard: true,
      host: 'localhost',
      port: '3000',
    })
  })
})

describe('usable hosts', () => {
  it.each([
    ['app.example.com', true],
    ['app.example.com:8080', true],
    ['127.0.0.1:3000', true],
    ['[::1]:3000', true],
    ['localhost', true],
    ['app.example.com:65536', false],
    ['app.example.com:0', false],
    ['user@app.example.com', false],
    ['app example.com', false],
    ['app.example.com/path', false],
    ['', false],
    ['-bad.example', false],
  ])('%s → %s', (host, expected) => {
    expect(isUsableHost(host)).toBe(expected)
  })
})

describe('isUsableHost, asked about one host over and over', () => {
  it('still refuses every other host, however often a good one was accepted before it', () => {
    for (let round = 0; round < 3; round++) {
      expect(isUsableHost('app.example:3000')).toBe(true)
      expect(isUsableHost('app.example:99999')).toBe(false)
      expect(isUsableHost('app.example:3000@evil.example')).toBe(false)
      expect(isUsableHost('app.example:3000 ')).toBe(false)
      expect(isUsableHost('')).toBe(false)
      expect(isUsableHost('[::1]:8080')).toBe(true)
    }
  })
})

describe('wildcards over public suffixes (#29 finding 12)', () => {
  // Through resolveConfig, which hands the allow-list compiler the Public Suffix List check: on 5b8e4d3 only a bare
  // TLD was refused, so each of these was accepted and let every tenant of the host receive proxied sign-ins.
  const configWith = (pattern: string) => () =>
    resolveConfig({
      providers: [],
      secret: 'a-secret-long-enough-for-the-tests-here-0123',
      redirectProxyAllowedOrigins: [pattern],
    })

  it.each(['https://*.vercel.app', 'https://*.github.io', 'https://*.co.uk', 'https://*.com', 'https://*.pages.dev'])(
    'refuses %s at start-up, naming the suffix',
    (pattern) => {
      expect(configWith(pattern)).toThrow(InvalidConfig)
      expect(configWith(pattern)).toThrow(/public suffix|neither an origin/)
    },
  )

  it.each([
    'https://*.myapp.vercel.app',
    'https://*.preview.example.com',
    'https://*.example.co.uk',
    'http://*.localhost:3000',
    'http://*.preview.localhost:3000',
  ])('accepts %s, a wildcard under a domain someone owns', (pattern) => {
    expect(configWith(pattern)).not.toThrow()
  })
})
