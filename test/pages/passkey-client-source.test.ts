/**
 * The sign-in page inlines the passkey helper from a static string (src/pages/passkey-client-source.ts), never from
 * a function's text, which depends on whoever loaded the module. The string must match src/webauthn-client.ts.
 */
import { readFileSync } from 'node:fs'
import { Script } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { passkeySignInSource } from '../../src/pages/passkey-client-source.js'
import { passkeyPageScript } from '../../src/pages/passkey-script.js'
import { renderPasskeyClientSource, sourceModule } from '../support/passkey-client-source.js'

describe('the passkey script of the sign-in page', () => {
  it('is generated from src/webauthn-client.ts and current (run `npm run passkey:source` after editing it)', () => {
    expect(readFileSync(sourceModule, 'utf8')).toBe(renderPasskeyClientSource())
  })

  it('inlines the static string, which names no helper of a build tool and parses as a script', () => {
    const script = passkeyPageScript()
    expect(script).toContain(passkeySignInSource)
    expect(script).not.toMatch(/__name|__publicField|__async/)
    const body = script.replace(/^<script>/, '').replace(/<\/script>$/, '')
    expect(() => new Script(body)).not.toThrow()
  })
})
