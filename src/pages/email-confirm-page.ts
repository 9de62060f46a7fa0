/**
 * The one-click confirmation page an e-mail sign-in link opens. Following the link consumes nothing (mail security
 * scanners fetch links before the person does); the button POSTs the link's values with this browser's CSRF token.
 */
import { isSingleMailAddress } from '../security/flow-guards.js'
import type { Theme } from '../types/index.js'
import { escapeHtml, renderPage } from './html.js'
import type { PageLocale } from './locale.js'
import { fillMessage } from './messages.js'

export interface EmailConfirmPageInput {
  actionUrl: string
  csrfToken: string
  token: string
  email?: string
  callbackUrl?: string
  theme?: Theme
  locale: PageLocale
}

function hidden(name: string, value: string | undefined): string {
  return value === undefined ? '' : `<input type="hidden" name="${name}" value="${escapeHtml(value)}" />`
}

/** The confirmation page: one button, nothing consumed until it is pressed. */
export function renderEmailConfirmPage(input: EmailConfirmPageInput): string {
  const m = input.locale.messages
  const fields =
    hidden('csrfToken', input.csrfToken) +
    hidden('token', input.token) +
    hidden('email', input.email) +
    hidden('callbackUrl', input.callbackUrl)
  // Anyone can craft a link with any `email=` text and a made-up token, and the page is on the site's own origin:
  // only a plain address is shown, so the line cannot carry a sentence of the attacker's (content spoofing).
  const who =
    input.email !== undefined && isSingleMailAddress({ event: { identifier: input.email } })
      ? `<p>${fillMessage(escapeHtml(m.emailConfirmAs), { email: `<strong>${escapeHtml(input.email)}</strong>` })}</p>`
      : ''
  return renderPage({
    title: m.emailConfirmTitle,
    content: `<h1>${escapeHtml(m.emailConfirmTitle)}</h1>${who}<form action="${escapeHtml(input.actionUrl)}" method="POST">${fields}<button type="submit">${escapeHtml(m.emailConfirmButton)}</button></form>`,
    locale: input.locale,
    theme: input.theme,
  })
}
