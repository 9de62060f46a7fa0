/**
 * The built-in second-factor page: the user's factors with a remove form each, a form to add an authenticator app,
 * the enrolment step (QR code inline as SVG, the key to type by hand, the first code), and the recovery codes,
 * shown once. Every form is a POST carrying the CSRF token; every value is escaped. The QR code is the one piece of
 * markup not built here: `enrolmentQrSvg` makes it from the `otpauth://` URI, nothing of the request in it.
 */
import type { FactorSummary, Theme } from '../types/index.js'
import type { FactorsPageMessages } from '../types/page-messages.js'
import { escapeHtml, renderPage } from './html.js'
import type { PageLocale } from './locale.js'
import { fillMessage, timeText } from './messages.js'
import { enFactors } from './locales/en.js'

/** What the page shows. */
export type FactorsView =
  | { kind: 'list'; factors: readonly FactorSummary[]; notice?: 'unknown' }
  | { kind: 'enrol'; enrolment: string; secret: string; qrSvg: string; problem?: 'wrongCode' }
  /** `onward`: where the confirmed enrolment goes on to (the vetted callback URL), linked after the codes. */
  | { kind: 'codes'; codes: readonly string[]; enrolled: boolean; onward?: string }
  | { kind: 'reauth'; signInUrl: string }
  | { kind: 'expired' }

function messagesOf(locale: PageLocale): Required<FactorsPageMessages> {
  // An app's own language without these texts (or without the newer ones) falls back to English.
  return { ...enFactors, ...locale.messages.factors }
}

/** The QR code as an image with a name, on a light ground whatever the page's scheme (scanners want dark on light). */
function qrFigure(svg: string, label: string): string {
  const named = svg.replace(/^<svg /, `<svg role="img" aria-label="${escapeHtml(label)}" width="200" height="200" `)
  return `<div class="qr">${named}</div>`
}

/** The base32 key in groups of four, as apps that take it by hand show it. */
function groupedKey(secret: string): string {
  return secret.match(/.{1,4}/g)?.join(' ') ?? secret
}

/** The page for one view of the user's second factors. */
export function renderFactorsPage(input: {
  actionUrl: string
  csrfToken: string
  view: FactorsView
  theme?: Theme
  locale: PageLocale
}): string {
  const m = messagesOf(input.locale)
  const lang = input.locale.lang
  const form = (inner: string) =>
    `<form action="${escapeHtml(input.actionUrl)}" method="POST"><input type="hidden" name="csrfToken" value="${escapeHtml(input.csrfToken)}" />${inner}</form>`
  const intent = (name: string) => `<input type="hidden" name="intent" value="${name}" />`
  const back = `<p><a class="back" href="${escapeHtml(input.actionUrl)}">${escapeHtml(m.back)}</a></p>`
  const view = input.view
  let title = m.title
  let content: string
  switch (view.kind) {
    case 'list': {
      const items = view.factors.map((factor) => {
        const name = factor.type === 'totp' ? m.totp : m.recoveryCodes
        const shownName = factor.label ? `${name}: ${factor.label}` : name
        const added = fillMessage(escapeHtml(m.added), { time: escapeHtml(timeText(lang, factor.createdAt)) })
        const remove = form(
          `${intent('remove')}<input type="hidden" name="factor" value="${escapeHtml(factor.id)}" /><button type="submit" class="provider" aria-label="${escapeHtml(`${m.remove}: ${shownName}`)}">${escapeHtml(m.remove)}</button>`,
        )
        return `<li><p><strong>${escapeHtml(shownName)}</strong><br />${added}</p>${remove}</li>`
      })
      const hasTotp = view.factors.some((factor) => factor.type === 'totp')
      const notice = view.notice === 'unknown' ? `<p class="error" role="alert">${escapeHtml(m.unknown)}</p>` : ''
      const list = items.length ? `<ul class="factors">${items.join('')}</ul>` : `<p>${escapeHtml(m.none)}</p>`
      const regenerate = hasTotp
        ? `<hr />${form(`${intent('regenerate')}<button type="submit" class="provider">${escapeHtml(m.regenerate)}</button>`)}`
        : ''
      content =
        `<h1>${escapeHtml(m.title)}</h1>${notice}<p>${escapeHtml(m.intro)}</p>${list}` +
        `${form(`${intent('start')}<button type="submit">${escapeHtml(m.addTotp)}</button>`)}${regenerate}`
      break
    }
    case 'enrol': {
      title = m.enrolTitle
      const problem = view.problem ? `<p class="error" role="alert" id="code-error">${escapeHtml(m.wrongCode)}</p>` : ''
      const described = view.problem ? ' aria-invalid="true" aria-describedby="code-error"' : ''
      content =
        `<h1>${escapeHtml(m.enrolTitle)}</h1>${problem}<p>${escapeHtml(m.enrolScan)}</p>${qrFigure(view.qrSvg, m.qrLabel)}` +
        `<p>${escapeHtml(m.secretLabel)}: <span class="key">${escapeHtml(groupedKey(view.secret))}</span></p>` +
        form(
          `${intent('confirm')}<input type="hidden" name="enrolment" value="${escapeHtml(view.enrolment)}" />` +
            `<label for="code">${escapeHtml(m.codeLabel)}</label><input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" maxlength="8" required${described} />` +
            `<label for="label">${escapeHtml(m.nameLabel)}</label><input id="label" name="label" type="text" maxlength="64" autocomplete="off" />` +
            `<button type="submit">${escapeHtml(m.confirm)}</button>`,
        ) +
        `<hr />${back}`
      break
    }
    case 'codes': {
      title = m.codesTitle
      const done = view.enrolled ? `<p role="status"><strong>${escapeHtml(m.enrolled)}</strong></p>` : ''
      const codes = view.codes.map((code) => `<li>${escapeHtml(code)}</li>`).join('')
      const onward = view.onward
        ? `<p><a class="button" href="${escapeHtml(view.onward)}">${escapeHtml(m.continue)}</a></p>`
        : ''
      content = `<h1>${escapeHtml(m.codesTitle)}</h1>${done}<p>${escapeHtml(m.codesText)}</p><ol class="codes">${codes}</ol>${onward}${back}`
      break
    }
    case 'reauth':
      content =
        `<h1>${escapeHtml(m.title)}</h1><p class="error" role="alert">${escapeHtml(m.reauth)}</p>` +
        `<p><a class="button" href="${escapeHtml(view.signInUrl)}">${escapeHtml(m.signInAgain)}</a></p>${back}`
      break
    case 'expired':
      content = `<h1>${escapeHtml(m.enrolTitle)}</h1><p class="error" role="alert">${escapeHtml(m.expired)}</p>${back}`
      break
  }
  return renderPage({ title, content, locale: input.locale, theme: input.theme })
}
