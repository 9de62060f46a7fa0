/**
 * The built-in second-factor challenge page: the sign-in stopped here because the user has an enrolled factor. One
 * form for the authenticator app's code, one for a recovery code; each is a POST carrying the CSRF token. Nothing of
 * the user or the challenge is shown: the cookie names the stored sign-in.
 */
import type { Theme } from '../types/index.js'
import type { SecondFactorPageMessages } from '../types/page-messages.js'
import { escapeHtml, renderPage } from './html.js'
import type { PageLocale } from './locale.js'
import { enSecondFactor } from './locales/en.js'

function messagesOf(locale: PageLocale): SecondFactorPageMessages {
  // An app's own language without these texts falls back to English.
  return locale.messages.secondFactor ?? enSecondFactor
}

/** The challenge page; `problem` after a wrong answer that left attempts. */
export function renderSecondFactorPage(input: {
  actionUrl: string
  csrfToken: string
  problem?: 'wrongCode'
  theme?: Theme
  locale: PageLocale
}): string {
  const m = messagesOf(input.locale)
  const form = (factor: 'otp' | 'recovery', inner: string) =>
    `<form action="${escapeHtml(input.actionUrl)}" method="POST"><input type="hidden" name="csrfToken" value="${escapeHtml(input.csrfToken)}" /><input type="hidden" name="factor" value="${factor}" />${inner}</form>`
  const problem = input.problem ? `<p class="error" role="alert" id="code-error">${escapeHtml(m.wrongCode)}</p>` : ''
  const described = input.problem ? ' aria-invalid="true" aria-describedby="code-error"' : ''
  const content =
    `<h1>${escapeHtml(m.title)}</h1>${problem}<p>${escapeHtml(m.intro)}</p>` +
    form(
      'otp',
      `<label for="code">${escapeHtml(m.codeLabel)}</label><input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" maxlength="8" required autofocus${described} />` +
        `<button type="submit">${escapeHtml(m.verify)}</button>`,
    ) +
    `<hr /><details><summary>${escapeHtml(m.useRecovery)}</summary>` +
    form(
      'recovery',
      `<label for="recovery">${escapeHtml(m.recoveryLabel)}</label><input id="recovery" name="code" type="text" autocomplete="off" maxlength="32" required />` +
        `<button type="submit" class="provider">${escapeHtml(m.verify)}</button>`,
    ) +
    `</details>`
  return renderPage({ title: m.title, content, locale: input.locale, theme: input.theme })
}
