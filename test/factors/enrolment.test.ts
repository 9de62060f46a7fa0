import { URI } from 'otpauth'
import { describe, expect, it } from 'vitest'
import { enrolmentQrSvg, otpauthUri } from '../../src/factors/enrolment.js'
import { newTotpSecret, totpCode, totpStep } from '../../src/factors/totp.js'

describe('enrolment', () => {
  const secret = newTotpSecret()

  it('gives an otpauth:// URI with issuer, account, secret and the default parameters', () => {
    const uri = otpauthUri({ issuer: 'Acme & Co', accountName: 'ada@example.com', secret })
    const url = new URL(uri)
    expect(url.protocol).toBe('otpauth:')
    expect(url.host).toBe('totp')
    expect(decodeURIComponent(url.pathname)).toBe('/Acme & Co:ada@example.com')
    expect(url.searchParams.get('secret')).toBe(secret)
    expect(url.searchParams.get('issuer')).toBe('Acme & Co')
    expect(url.searchParams.get('algorithm')).toBe('SHA1')
    expect(url.searchParams.get('digits')).toBe('6')
    expect(url.searchParams.get('period')).toBe('30')
    // What an authenticator app reads from it makes the codes the check expects.
    const parsed = URI.parse(uri)
    const now = Date.now()
    expect(parsed.generate({ timestamp: now })).toBe(totpCode(secret, totpStep(now)))
  })

  it('draws the URI as an SVG QR code without scripts or external references', async () => {
    const svg = await enrolmentQrSvg(otpauthUri({ issuer: 'Acme', accountName: 'ada@example.com', secret }))
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*viewBox="0 0 \d+ \d+"/)
    expect(svg).toContain('<path')
    expect(svg).not.toMatch(/<script|href=|<image/i)
  })
})
