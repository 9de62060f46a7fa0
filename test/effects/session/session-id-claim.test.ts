/**
 * The session id claim a session-managed JWT carries: written in its compact form (one string), read in that form
 * and in the object form of tokens sealed before it, and refused (no claim, so no id to list or revoke by) when a
 * string is not one Authchart wrote.
 */
import { describe, expect, it } from 'vitest'
import {
  newSessionIdClaim,
  readSessionIdClaim,
  recordedSessionIdClaim,
  sealedSessionIdClaim,
  sessionIdClaimName,
  type SessionIdClaim,
} from '../../../src/effects/session/session-record.js'

const signedInAt = Date.UTC(2026, 10, 29, 9, 0, 0)

function reread(claim: SessionIdClaim): SessionIdClaim | undefined {
  // Through JSON, as the claim travels inside the sealed token.
  return readSessionIdClaim(JSON.parse(JSON.stringify({ [sessionIdClaimName]: sealedSessionIdClaim(claim) })))
}

describe('the session id claim', () => {
  it('a new session gets a 96-bit id and is sealed as one short string that reads back the same', () => {
    const claim = newSessionIdClaim({ nowMs: signedInAt }, 'credentials')
    expect(claim.id).toMatch(/^[A-Za-z0-9_-]{16}$/)
    const sealed = sealedSessionIdClaim(claim)
    expect(sealed).toBe(`${claim.id}.${signedInAt.toString(36)}..credentials`)
    expect(JSON.stringify(sealed).length).toBeLessThan(50)
    expect(reread(claim)).toEqual({ id: claim.id, at: signedInAt, m: 'credentials' })
  })

  it('keeps the time its record was written, and a method that is absent or holds dots', () => {
    const recorded = recordedSessionIdClaim({ id: 'abc', at: signedInAt, m: 'my.oidc.provider' }, signedInAt + 5)
    expect(recorded).toBe(`abc.${signedInAt.toString(36)}.${(signedInAt + 5).toString(36)}.my.oidc.provider`)
    expect(readSessionIdClaim({ [sessionIdClaimName]: recorded })).toEqual({
      id: 'abc',
      at: signedInAt,
      r: signedInAt + 5,
      m: 'my.oidc.provider',
    })
    expect(reread({ id: 'abc', at: signedInAt })).toEqual({ id: 'abc', at: signedInAt })
    expect(reread({ id: 'abc', at: 0, r: 1 })).toEqual({ id: 'abc', at: 0, r: 1 })
  })

  it('writes every time as toString(36) does, at the edges of each digit count and up to the largest safe integer', () => {
    const times = [0, 1, 35, 36, 1295, 1296, 46_655, 46_656, Number.MAX_SAFE_INTEGER]
    for (let digits = 2; digits <= 11; digits++) times.push(36 ** digits - 1, 36 ** digits)
    for (let i = 0; i < 200; i++) times.push(Math.floor(Math.random() * Number.MAX_SAFE_INTEGER))
    for (const at of times.filter((time) => Number.isSafeInteger(time))) {
      expect(sealedSessionIdClaim({ id: 'x', at })).toBe(`x.${at.toString(36)}..`)
      expect(recordedSessionIdClaim({ id: 'x', at: 0 }, at)).toBe(`x.0.${at.toString(36)}.`)
      expect(reread({ id: 'x', at, r: at })).toEqual({ id: 'x', at, r: at })
    }
  })

  it('reads the object form of tokens sealed before the compact one', () => {
    const old = { id: '0b8f2c1e-5c7a-4a57-9d38-4d1f0c2b6e11', at: signedInAt, m: 'github', r: signedInAt + 9 }
    expect(readSessionIdClaim({ [sessionIdClaimName]: old })).toEqual(old)
    // And a check re-seals such a session in the compact form.
    expect(typeof recordedSessionIdClaim(old, signedInAt + 10)).toBe('string')
  })

  it('a claim the compact form cannot hold unambiguously keeps the object form', () => {
    const dotted = { id: 'a.b', at: signedInAt }
    expect(sealedSessionIdClaim(dotted)).toBe(dotted)
    expect(reread(dotted)).toEqual(dotted)
    for (const odd of [
      { id: 'x', at: 1.5 },
      { id: 'x', at: -1 },
      { id: 'x', at: 5, r: Number.NaN },
      { id: '', at: 5 },
    ]) {
      expect(typeof sealedSessionIdClaim(odd)).toBe('object')
    }
  })

  it('a string Authchart did not write is no claim', () => {
    const at = signedInAt.toString(36)
    for (const text of [
      '',
      'abc',
      `abc.${at}`,
      `abc.${at}.`,
      `.${at}..m`,
      'abc...m',
      `abc.${at.toUpperCase()}..m`,
      `abc.12!..m`,
      `abc.-5..m`,
      `abc.${at}.x!.m`,
      `abc.${'z'.repeat(12)}..m`,
      // Eleven digits past the largest safe integer (2gosa7pa2gv): not exact, so refused rather than rounded.
      `abc.${'z'.repeat(11)}..m`,
      'abc.2gosa7pa2gw..m',
      `abc.${at}.2gosa7pa2gw.m`,
    ]) {
      expect(readSessionIdClaim({ [sessionIdClaimName]: text }), text).toBeUndefined()
    }
    expect(readSessionIdClaim({ [sessionIdClaimName]: 42 })).toBeUndefined()
    expect(readSessionIdClaim({ [sessionIdClaimName]: { id: 7, at: signedInAt } })).toBeUndefined()
    expect(readSessionIdClaim({})).toBeUndefined()
  })
})
