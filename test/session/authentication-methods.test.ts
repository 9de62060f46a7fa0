import { describe, expect, it } from 'vitest'
import { authenticationMethods, isRecentAuthentication } from '../../src/session/authentication-methods.js'

describe('authenticationMethods', () => {
  it('names each first factor with its RFC 8176 value, or the documented own one', () => {
    expect(authenticationMethods({ providerType: 'credentials' })).toEqual(['pwd'])
    expect(authenticationMethods({ providerType: 'email' })).toEqual(['email'])
    expect(authenticationMethods({ providerType: 'oauth' })).toEqual(['fed'])
    expect(authenticationMethods({ providerType: 'oidc' })).toEqual(['fed'])
  })

  it('counts a passkey with user verification as two factors unless the app says otherwise', () => {
    expect(authenticationMethods({ providerType: 'webauthn' })).toEqual(['hwk', 'mfa', 'user'])
    expect(authenticationMethods({ providerType: 'webauthn', passkeyDeviceType: 'multiDevice' })).toEqual([
      'mfa',
      'swk',
      'user',
    ])
    expect(authenticationMethods({ providerType: 'webauthn', passkeyCountsAsTwoFactors: false })).toEqual([
      'hwk',
      'user',
    ])
  })

  it('adds otp and mfa for a TOTP or recovery code, and the key for a passkey second factor', () => {
    expect(authenticationMethods({ providerType: 'credentials', secondFactorMethod: 'otp' })).toEqual([
      'mfa',
      'otp',
      'pwd',
    ])
    expect(authenticationMethods({ providerType: 'email', secondFactorMethod: 'recovery' })).toEqual([
      'email',
      'mfa',
      'otp',
    ])
    expect(authenticationMethods({ providerType: 'oidc', secondFactorMethod: 'webauthn' })).toEqual([
      'fed',
      'hwk',
      'mfa',
      'user',
    ])
  })

  it('an e-mail link is never an otp: a step-up asking for a TOTP is not met by a mailbox', () => {
    const amr = authenticationMethods({ providerType: 'email' })
    expect(isRecentAuthentication({ authTime: 100, amr }, { maxAge: 60, factors: ['otp'], now: 110 })).toBe(false)
  })
})

describe('isRecentAuthentication', () => {
  const now = 1_000_000
  it('is recent within maxAge, and not one second beyond it', () => {
    expect(isRecentAuthentication({ authTime: now - 300 }, { maxAge: 300, now })).toBe(true)
    expect(isRecentAuthentication({ authTime: now - 301 }, { maxAge: 300, now })).toBe(false)
  })

  it('fails closed: no session, no or unreadable authTime, an authTime in the future', () => {
    expect(isRecentAuthentication(null, { maxAge: 300, now })).toBe(false)
    expect(isRecentAuthentication({}, { maxAge: 300, now })).toBe(false)
    expect(isRecentAuthentication({ authTime: String(now) }, { maxAge: 300, now })).toBe(false)
    expect(isRecentAuthentication({ authTime: Number.NaN }, { maxAge: 300, now })).toBe(false)
    expect(isRecentAuthentication({ authTime: now + 60 }, { maxAge: 300, now })).toBe(false)
  })

  it('asks every required factor of the amr', () => {
    const session = { authTime: now, amr: ['mfa', 'otp', 'pwd'] }
    expect(isRecentAuthentication(session, { maxAge: 60, factors: ['otp'], now })).toBe(true)
    expect(isRecentAuthentication(session, { maxAge: 60, factors: ['mfa', 'pwd'], now })).toBe(true)
    expect(isRecentAuthentication(session, { maxAge: 60, factors: ['hwk'], now })).toBe(false)
    expect(isRecentAuthentication({ authTime: now, amr: 'otp' }, { maxAge: 60, factors: ['otp'], now })).toBe(false)
  })

  it('refuses a maxAge that is not a number of seconds', () => {
    expect(() => isRecentAuthentication({ authTime: now }, { maxAge: -1, now })).toThrow(RangeError)
    expect(() => isRecentAuthentication({ authTime: now }, { maxAge: Number.NaN, now })).toThrow(RangeError)
  })
})
