/** The built-in sign-out, error and verify-request pages. */
import type { Theme } from '../types/index.js'
import { escapeHtml, renderPage } from './html.js'
import { errorPageMessage } from './messages.js'

/** A sign-out confirmation: a POST form carrying the CSRF token. */
export function renderSignOutPage(input: {
  actionUrl: string
  csrfToken: string
  callbackUrl?: string
  theme?: Theme
}): string {
  const callback = input.callbackUrl
    ? `<input type="hidden" name="callbackUrl" value="${escapeHtml(input.callbackUrl)}" />`
    : ''
  return renderPage(
    'Sign out',
    `<h1>Sign out</h1><p>Are you sure you want to sign out?</p><form action="${escapeHtml(input.actionUrl)}" method="POST"><input type="hidden" name="csrfToken" value="${escapeHtml(input.csrfToken)}" />${callback}<button type="submit">Sign out</button></form>`,
    input.theme,
  )
}

/** The error page for one of the spec's error-page values. */
export function renderErrorPage(input: { error: string; homeUrl: string; signInUrl: string; theme?: Theme }): string {
  const { title, text } = errorPageMessage(input.error)
  const link =
    input.error === 'Verification'
      ? `<a class="button" href="${escapeHtml(input.signInUrl)}">Sign in</a>`
      : `<a class="button" href="${escapeHtml(input.homeUrl)}">Home</a>`
  return renderPage(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>${link}`, input.theme)
}

/** The page shown after an e-mail sign-in link was sent. */
export function renderVerifyRequestPage(input: { homeUrl: string; theme?: Theme }): string {
  return renderPage(
    'Check your email',
    `<h1>Check your email</h1><p>A sign-in link has been sent to your email address.</p><a class="button" href="${escapeHtml(input.homeUrl)}">Home</a>`,
    input.theme,
  )
}
