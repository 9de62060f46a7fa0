/** The built-in sign-out, error, verify-request and "try again shortly" pages. */
import type { Theme } from '../types/index.js'
import { escapeHtml, renderPage } from './html.js'
import type { PageLocale } from './locale.js'
import { errorPageMessage } from './messages.js'

/** A sign-out confirmation: a POST form carrying the CSRF token. */
export function renderSignOutPage(input: {
  actionUrl: string
  csrfToken: string
  callbackUrl?: string
  theme?: Theme
  locale: PageLocale
}): string {
  const m = input.locale.messages
  const callback = input.callbackUrl
    ? `<input type="hidden" name="callbackUrl" value="${escapeHtml(input.callbackUrl)}" />`
    : ''
  return renderPage({
    title: m.signOutTitle,
    content: `<h1>${escapeHtml(m.signOutTitle)}</h1><p>${escapeHtml(m.signOutQuestion)}</p><form action="${escapeHtml(input.actionUrl)}" method="POST"><input type="hidden" name="csrfToken" value="${escapeHtml(input.csrfToken)}" />${callback}<button type="submit">${escapeHtml(m.signOutButton)}</button></form>`,
    locale: input.locale,
    theme: input.theme,
  })
}

/** The error page for one of the spec's error-page values. */
export function renderErrorPage(input: {
  error: string
  homeUrl: string
  signInUrl: string
  theme?: Theme
  locale: PageLocale
}): string {
  const m = input.locale.messages
  const { title, text } = errorPageMessage(m, input.error)
  const link =
    input.error === 'Verification'
      ? `<a class="button" href="${escapeHtml(input.signInUrl)}">${escapeHtml(m.signInLink)}</a>`
      : `<a class="button" href="${escapeHtml(input.homeUrl)}">${escapeHtml(m.homeLink)}</a>`
  return renderPage({
    title,
    content: `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>${link}`,
    locale: input.locale,
    theme: input.theme,
  })
}

/**
 * The page for a sign-in or callback address whose provider id is not configured: it names the ids that are, so a
 * mistyped id is found at once. The requested id is not echoed (it comes from the address bar).
 */
export function renderUnknownProviderPage(input: {
  providerIds: readonly string[]
  homeUrl: string
  theme?: Theme
  locale: PageLocale
}): string {
  const m = input.locale.messages
  const text = m.unknownProviderText.replace('{providers}', input.providerIds.join(', ') || '-')
  return renderPage({
    title: m.unknownProviderTitle,
    content: `<h1>${escapeHtml(m.unknownProviderTitle)}</h1><p>${escapeHtml(text)}</p><a class="button" href="${escapeHtml(input.homeUrl)}">${escapeHtml(m.homeLink)}</a>`,
    locale: input.locale,
    theme: input.theme,
  })
}

/** The page shown after an e-mail sign-in link was sent. */
export function renderVerifyRequestPage(input: { homeUrl: string; theme?: Theme; locale: PageLocale }): string {
  const m = input.locale.messages
  return renderPage({
    title: m.verifyRequestTitle,
    content: `<h1>${escapeHtml(m.verifyRequestTitle)}</h1><p>${escapeHtml(m.verifyRequestText)}</p><a class="button" href="${escapeHtml(input.homeUrl)}">${escapeHtml(m.homeLink)}</a>`,
    locale: input.locale,
    theme: input.theme,
  })
}

/**
 * The page shown while a store the flows need (flow store, database) cannot be reached. On a callback
 * (`restartUrl` set) the flow being finished was spent by the attempt, so a retry of the same URL cannot work: the
 * page says to start again and links to the sign-in page.
 */
export function renderUnavailablePage(input: { theme?: Theme; locale: PageLocale; restartUrl?: string }): string {
  const m = input.locale.messages
  const restart = input.restartUrl
    ? `<p>${escapeHtml(m.unavailableRestartText)}</p><a class="button" href="${escapeHtml(input.restartUrl)}">${escapeHtml(m.signInLink)}</a>`
    : ''
  return renderPage({
    title: m.unavailableTitle,
    content: `<h1>${escapeHtml(m.unavailableTitle)}</h1><p>${escapeHtml(m.unavailableText)}</p>${restart}`,
    locale: input.locale,
    theme: input.theme,
  })
}
