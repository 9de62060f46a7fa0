/**
 * The one-click confirmation page an e-mail sign-in link opens. Following the link consumes nothing (mail security
 * scanners fetch links before the person does); the button POSTs the link's values with this browser's CSRF token.
 */
import type { Theme } from '../types/index.js'
import { escapeHtml, renderPage } from './html.js'

export interface EmailConfirmPageInput {
  actionUrl: string
  csrfToken: string
  token: string
  email?: string
  callbackUrl?: string
  theme?: Theme
}

function hidden(name: string, value: string | undefined): string {
  return value === undefined ? '' : `<input type="hidden" name="${name}" value="${escapeHtml(value)}" />`
}

/** The confirmation page: one button, nothing consumed until it is pressed. */
export function renderEmailConfirmPage(input: EmailConfirmPageInput): string {
  const fields =
    hidden('csrfToken', input.csrfToken) +
    hidden('token', input.token) +
    hidden('email', input.email) +
    hidden('callbackUrl', input.callbackUrl)
  const who = input.email ? `<p>Signing in as <strong>${escapeHtml(input.email)}</strong>.</p>` : ''
  return renderPage(
    'Sign in',
    `<h1>Finish signing in</h1>${who}<form action="${escapeHtml(input.actionUrl)}" method="POST">${fields}<button type="submit">Sign in</button></form>`,
    input.theme,
  )
}
