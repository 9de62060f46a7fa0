import { describe, expect, it } from 'vitest'
import { openTotpSecret, sealTotpSecret } from '../../src/factors/secret-seal.js'
import { newTotpSecret } from '../../src/factors/totp.js'
import { InvalidConfig } from '../../src/errors.js'
import { sealCompactJwe } from '../../src/session/jwe.js'
import { derivePurposeKey } from '../../src/session/hkdf-keys.js'

describe('the TOTP secret at rest', () => {
  const owner = { userId: 'user-1', factorId: 'factor-1' }
  const totpSecret = newTotpSecret()

  it('is sealed (the stored text does not hold the secret) and opens with the same app secret', () => {
    const sealed = sealTotpSecret(['app-secret'], owner, totpSecret)
    expect(sealed.split('.')).toHaveLength(5)
    expect(sealed).not.toContain(totpSecret)
    expect(Buffer.from(sealed.split('.')[3] ?? '', 'base64url').toString('latin1')).not.toContain(totpSecret)
    expect(openTotpSecret(['app-secret'], owner, sealed)).toEqual({ secret: totpSecret, keyIndex: 0 })
  })

  it('still opens after the app secret is rotated, and says it was an older secret', () => {
    const sealed = sealTotpSecret(['old-secret'], owner, totpSecret)
    expect(openTotpSecret(['new-secret', 'old-secret'], owner, sealed)).toEqual({ secret: totpSecret, keyIndex: 1 })
    expect(openTotpSecret(['new-secret'], owner, sealed)).toBeNull()
  })

  it('opens for nobody else: another user, another factor, an altered or malformed text', () => {
    const sealed = sealTotpSecret(['app-secret'], owner, totpSecret)
    expect(openTotpSecret(['app-secret'], { ...owner, userId: 'user-2' }, sealed)).toBeNull()
    expect(openTotpSecret(['app-secret'], { ...owner, factorId: 'factor-2' }, sealed)).toBeNull()
    const parts = sealed.split('.')
    const ciphertext = parts[3] ?? ''
    parts[3] = (ciphertext[0] === 'A' ? 'B' : 'A') + ciphertext.slice(1)
    expect(openTotpSecret(['app-secret'], owner, parts.join('.'))).toBeNull()
    for (const bad of ['', 'x', 'a.b.c.d.e', totpSecret]) expect(openTotpSecret(['app-secret'], owner, bad)).toBeNull()
  })

  it('uses a key of its own: the same payload sealed under another purpose key of the same app secret does not open', () => {
    const payload = JSON.stringify({ v: 1, u: owner.userId, f: owner.factorId, s: totpSecret })
    const foreign = sealCompactJwe(payload, derivePurposeKey('app-secret', 'flow cookie authjs.flow', 32), 'A256GCM')
    expect(openTotpSecret(['app-secret'], owner, foreign)).toBeNull()
    // A fresh IV each time: sealing one secret twice gives two texts.
    expect(sealTotpSecret(['app-secret'], owner, totpSecret)).not.toBe(
      sealTotpSecret(['app-secret'], owner, totpSecret),
    )
  })

  it('needs an app secret to seal', () => {
    expect(() => sealTotpSecret([], owner, totpSecret)).toThrow(InvalidConfig)
  })
})
