/**
 * The "your sessions" page in every built-in language: one sign-out form per other device and one for every other
 * device, each a POST with the CSRF token; no form for the device the page is shown on; every value escaped.
 */
import { describe, expect, it } from 'vitest'
import { builtInPageLocales, choosePageLocale } from '../../src/pages/locale.js'
import { renderSessionsPage, type ShownSession } from '../../src/pages/sessions-page.js'

const at = Date.UTC(2026, 10, 28, 9, 30)
const sessions: ShownSession[] = [
  {
    id: 'here',
    userId: 'u',
    createdAt: at,
    lastSeenAt: at,
    expiresAt: at + 1e9,
    userAgent: 'Firefox on Linux',
    current: true,
  },
  {
    id: 'phone"><script>',
    userId: 'u',
    createdAt: at,
    lastSeenAt: at,
    expiresAt: at + 1e9,
    userAgent: 'Safari on iOS',
    clientAddress: '203.0.113.9',
    method: '<b>idp</b>',
    current: false,
  },
]

describe('the sessions page', () => {
  it.each(['en', 'fr', 'de', 'es', 'ja'])(
    '%s: forms with the CSRF token, this device without one, all escaped',
    (lang) => {
      const locale = choosePageLocale(builtInPageLocales, lang)
      expect(locale.lang).toBe(lang)
      const html = renderSessionsPage({ actionUrl: '/auth/sessions', csrfToken: 'tok', sessions, locale })
      expect(html).toContain(`<html lang="${lang}"`)
      const forms = html.match(
        /<form action="\/auth\/sessions" method="POST"><input type="hidden" name="csrfToken" value="tok" \/>/g,
      )
      expect(forms).toHaveLength(2)
      expect(html).toContain('name="revoke" value="others"')
      expect(html).not.toContain('value="here"')
      expect(html).not.toContain('<script>')
      expect(html).not.toContain('<b>idp</b>')
      expect(html).toContain('203.0.113.9')
      expect(html).toContain(locale.messages.sessions?.title ?? 'missing title')
    },
  )

  it('says there are no other sessions when there are none', () => {
    const locale = choosePageLocale(builtInPageLocales, 'en')
    const html = renderSessionsPage({
      actionUrl: '/auth/sessions',
      csrfToken: 'tok',
      sessions: sessions.slice(0, 1),
      locale,
    })
    expect(html).toContain('No other sessions.')
    expect(html).not.toContain('<form')
  })
})
