import { Secret } from 'otpauth'
import { describe, expect, it } from 'vitest'
import {
  checkTotpCode,
  newTotpSecret,
  normaliseTotpCode,
  totpCode,
  totpDefaults,
  totpStep,
  type TotpAlgorithm,
} from '../../src/factors/totp.js'

// RFC 6238 Appendix B: the seeds are ASCII, 20, 32 and 64 bytes long for SHA1, SHA256 and SHA512; 8 digits, 30 s.
const seeds: Record<TotpAlgorithm, string> = {
  SHA1: '12345678901234567890',
  SHA256: '12345678901234567890123456789012',
  SHA512: '1234567890123456789012345678901234567890123456789012345678901234',
}
const vectors: [seconds: number, sha1: string, sha256: string, sha512: string][] = [
  [59, '94287082', '46119246', '90693936'],
  [1111111109, '07081804', '68084774', '25091201'],
  [1111111111, '14050471', '67062674', '99943326'],
  [1234567890, '89005924', '91819424', '93441116'],
  [2000000000, '69279037', '90698825', '38618901'],
  [20000000000, '65353130', '77737706', '47863826'],
]

describe('TOTP codes (RFC 6238 Appendix B)', () => {
  for (const [seconds, ...codes] of vectors) {
    const algorithms: TotpAlgorithm[] = ['SHA1', 'SHA256', 'SHA512']
    algorithms.forEach((algorithm, index) => {
      it(`${algorithm} at T=${seconds} is ${codes[index]}`, () => {
        const parameters = { algorithm, digits: 8, period: 30 } as const
        const secret = Secret.fromLatin1(seeds[algorithm]).base32
        const step = totpStep(seconds * 1000, parameters)
        expect(totpCode(secret, step, parameters)).toBe(codes[index])
        expect(
          checkTotpCode({ secret, code: codes[index] ?? '', nowMs: seconds * 1000, lastUsedStep: null, parameters }),
        ).toBe(step)
      })
    })
  }
})

describe('checkTotpCode', () => {
  const secret = newTotpSecret()
  const now = Date.UTC(2026, 10, 28, 12, 0, 10)
  const step = totpStep(now)

  it('accepts the current step and one step of drift either way, naming the step', () => {
    for (const drift of [-1, 0, 1]) {
      expect(checkTotpCode({ secret, code: totpCode(secret, step + drift), nowMs: now, lastUsedStep: null })).toBe(
        step + drift,
      )
    }
  })

  it('refuses codes two steps away', () => {
    for (const drift of [-2, 2]) {
      expect(checkTotpCode({ secret, code: totpCode(secret, step + drift), nowMs: now, lastUsedStep: null })).toBeNull()
    }
  })

  it('refuses a code of a step already used, and an older one after it', () => {
    expect(checkTotpCode({ secret, code: totpCode(secret, step), nowMs: now, lastUsedStep: step })).toBeNull()
    expect(checkTotpCode({ secret, code: totpCode(secret, step - 1), nowMs: now, lastUsedStep: step })).toBeNull()
    expect(checkTotpCode({ secret, code: totpCode(secret, step + 1), nowMs: now, lastUsedStep: step })).toBe(step + 1)
  })

  it("refuses another secret's code, and input that is no code", () => {
    const other = newTotpSecret()
    const code = totpCode(other, step)
    // A six-digit collision between two secrets is possible (1 in 10^6 a step); skip the check only then.
    const collides = [-1, 0, 1].some((drift) => totpCode(secret, step + drift) === code)
    expect(checkTotpCode({ secret, code, nowMs: now, lastUsedStep: null })).toBe(collides ? step : null)
    for (const bad of ['', '12345', '1234567', 'abcdef', '12 34 5x', '1'.repeat(100)]) {
      expect(checkTotpCode({ secret, code: bad, nowMs: now, lastUsedStep: null })).toBeNull()
    }
  })

  it('takes the code with spaces as some apps show it', () => {
    const code = totpCode(secret, step)
    expect(normaliseTotpCode(`${code.slice(0, 3)} ${code.slice(3)}`)).toBe(code)
    expect(
      checkTotpCode({ secret, code: ` ${code.slice(0, 3)} ${code.slice(3)} `, nowMs: now, lastUsedStep: null }),
    ).toBe(step)
  })

  it('makes 160-bit secrets, 30-second steps and 6-digit codes by default', () => {
    expect(Secret.fromBase32(secret).bytes).toHaveLength(20)
    expect(newTotpSecret()).not.toBe(secret)
    expect(totpDefaults).toEqual({ algorithm: 'SHA1', digits: 6, period: 30 })
    expect(totpStep(59_999)).toBe(1)
    expect(totpCode(secret, step)).toMatch(/^\d{6}$/)
  })
})
