/**
 * The e-mail confirmation page (#29 finding 15). It is served on the site's own origin for any `token=` (a made-up
 * one too: the token is only looked at when the button is pressed), so what it shows and who may frame it matter.
 * On 5b8e4d3 it printed whatever `email=` said ("Sign in as <sentence of the attacker's>") and could be framed
 * by any site, which turns its one sign-in button into a clickjacking target.
 */
import { describe, expect, it } from 'vitest'
import { MemoryAdapter } from '../../adapters/memory.js'
import Nodemailer from '../../src/providers/nodemailer.js'
import type { AuthConfig } from '../../src/types/index.js'
import { origin, secret, send } from '../support/auth-harness.js'

const config: AuthConfig = {
  secret,
  url: origin,
  adapter: MemoryAdapter(),
  session: { strategy: 'jwt' },
  // Nothing is sent in this file: the page is reached by following a link, which sends no mail.
  providers: [Nodemailer({ id: 'email', server: 'smtp://127.0.0.1:1', from: 'login@site.test' })],
}

const follow = (email: string) =>
  send(config, `/auth/callback/email?${new URLSearchParams({ token: 'made-up-token', email })}`)

describe('the e-mail confirmation page', () => {
  it('may not be framed by another site', async () => {
    const page = await follow('ada@example.com')
    expect(page.status).toBe(200)
    expect(page.headers.get('content-security-policy')).toBe("frame-ancestors 'none'")
    expect(page.headers.get('x-frame-options')).toBe('DENY')
  })

  it('names a plain address', async () => {
    expect(await (await follow('ada@example.com')).text()).toContain('<strong>ada@example.com</strong>')
  })

  it.each([
    'Your account is suspended. Call +1 555 0100 now',
    'ada@example.com, call support at +1 555 0100',
    'support <help@evil.test>',
  ])('does not print a sentence of the link maker’s: %s', async (email) => {
    const html = await (await follow(email)).text()
    // The form still carries the value in a hidden field (a provider's own normalizeIdentifier may allow unusual
    // addresses, and the button must still work for them); what a person reads must not.
    expect(html).toContain('name="email"')
    const shown = html.replace(/<input[^>]*>/g, '')
    expect(shown).not.toContain('555 0100')
    expect(shown).not.toContain('<strong>')
  })
})
