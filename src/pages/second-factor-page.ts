/**
 * The built-in second-factor challenge page: the sign-in stopped here because the user has an enrolled factor. One
 * form for the authenticator app's code, one for a recovery code; each is a POST carrying the CSRF token. A user who
 * holds a passkey also gets a button that answers with it (an inline script, the sign-in page's helpers; hidden
 * without JavaScript, where the codes still answer). Nothing of the user or the challenge is shown: the cookie names
 * the stored sign-in.
 */
import type { Theme } from '../types/index.js'
import type { SecondFactorPageMessages } from '../types/page-messages.js'
import { escapeHtml, renderPage } from './html.js'
import type { PageLocale } from './locale.js'
import { enSecondFactor } from './locales/en.js'
import { passkeyChallengeScript } from './passkey-script.js'

function messagesOf(locale: PageLocale): Required<SecondFactorPageMessages> {
  // An app's own language without these texts (or without the newer ones) falls back to English.
  return { ...enSecondFactor, ...locale.messages.secondFactor }
}

/**
 * The challenge page; `problem` after a wrong answer that left attempts; `passkey` when the user holds a passkey that
 * can answer (`basePath`: where Authchart is mounted, for the script's requests).
 */
export function renderSecondFactorPage(input: {
  actionUrl: string
  csrfToken: string
  problem?: 'wrongCode'
  passkey?: { basePath: string }
  theme?: Theme
  locale: PageLocale
}): string {
  const m = messagesOf(input.locale)
  const form = (factor: 'otp' | 'recovery', inner: string) =>
    `<form action="${escapeHtml(input.actionUrl)}" method="POST"><input type="hidden" name="csrfToken" value="${escapeHtml(input.csrfToken)}" /><input type="hidden" name="factor" value="${factor}" />${inner}</form>`
  const problem = input.problem ? `<p class="error" role="alert" id="code-error">${escapeHtml(m.wrongCode)}</p>` : ''
  const described = input.problem ? ' aria-invalid="true" aria-describedby="code-error"' : ''
  const passkey = input.passkey
    ? `<div class="passkey" data-passkey-answer data-base="${escapeHtml(input.passkey.basePath)}" data-failed="${escapeHtml(m.passkeyFailed)}" hidden>` +
      `<hr /><button type="button" class="provider">${escapeHtml(m.usePasskey)}</button><p class="error" role="alert" hidden></p></div>`
    : ''
  const content =
    `<h1>${escapeHtml(m.title)}</h1>${problem}<p>${escapeHtml(m.intro)}</p>` +
    form(
      'otp',
      `<label for="code">${escapeHtml(m.codeLabel)}</label><input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" maxlength="8" required autofocus${described} />` +
        `<button type="submit">${escapeHtml(m.verify)}</button>`,
    ) +
    passkey +
    `<hr /><details><summary>${escapeHtml(m.useRecovery)}</summary>` +
    form(
      'recovery',
      `<label for="recovery">${escapeHtml(m.recoveryLabel)}</label><input id="recovery" name="code" type="text" autocomplete="off" maxlength="32" required />` +
        `<button type="submit" class="provider">${escapeHtml(m.verify)}</button>`,
    ) +
    `</details>` +
    (input.passkey ? passkeyChallengeScript() : '')
  return renderPage({ title: m.title, content, locale: input.locale, theme: input.theme })
}
