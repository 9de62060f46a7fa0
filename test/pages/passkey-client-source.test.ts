/**
 * The sign-in page inlines the passkey helper from a static string (src/pages/passkey-client-source.ts), never from
 * a function's text, which depends on whoever loaded the module. The string must match src/webauthn-client.ts.
 */
import { readFileSync } from 'node:fs'
import { Script } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { passkeyClientSource } from '../../src/pages/passkey-client-source.js'
import { passkeyChallengeScript, passkeyPageScript } from '../../src/pages/passkey-script.js'
import { renderPasskeyClientSource, sourceModule } from '../support/passkey-client-source.js'

describe('the passkey script of the sign-in page', () => {
  it('is generated from src/webauthn-client.ts and current (run `npm run passkey:source` after editing it)', () => {
    expect(readFileSync(sourceModule, 'utf8')).toBe(renderPasskeyClientSource())
  })

  it('inlines the static string, which names no helper of a build tool and parses as a script', () => {
    // The sign-in page's script and the challenge page's: the same helpers, each page its own wiring.
    for (const script of [passkeyPageScript(), passkeyChallengeScript()]) {
      expect(script).toContain(passkeyClientSource)
      expect(script).not.toMatch(/__name|__publicField|__async|\bexport\b/)
      const body = script.replace(/^<script>/, '').replace(/<\/script>$/, '')
      expect(() => new Script(body)).not.toThrow()
    }
    expect(passkeyClientSource).toMatch(/^async function passkeyCredential\(/)
    expect(passkeyClientSource).toContain('async function passkeySignIn(')
    expect(passkeyClientSource).toContain('async function passkeySecondFactor(')
  })
})
