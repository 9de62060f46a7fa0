/**
 * The built-in "your sessions" page (session management): one entry per device the user is signed in on, each
 * other device with its own sign-out form, and one form that signs out everywhere else. Every form is a POST carrying
 * the CSRF token. Nothing on the page comes from a header as such: the device names are the short summaries of
 * `src/session/user-agent.ts`, escaped like every other text.
 */
import type { SessionRecord, Theme } from '../types/index.js'
import type { SessionsPageMessages } from '../types/page-messages.js'
import { escapeHtml, renderPage } from './html.js'
import type { PageLocale } from './locale.js'
import { fillMessage, timeText } from './messages.js'
import { enSessions } from './locales/en.js'

/** A session on the page: its record, and whether it is the one the page is shown on. */
export type ShownSession = SessionRecord & { current: boolean }

function messagesOf(locale: PageLocale): SessionsPageMessages {
  // An app's own language without these texts falls back to English.
  return locale.messages.sessions ?? enSessions
}

function entry(session: ShownSession, m: SessionsPageMessages, lang: string, form: (inner: string) => string): string {
  const name = escapeHtml(session.userAgent ?? '-')
  const heading = session.current ? `${name} <strong>(${escapeHtml(m.thisDevice)})</strong>` : name
  const facts = [
    fillMessage(escapeHtml(m.signedIn), { time: escapeHtml(timeText(lang, session.createdAt)) }),
    fillMessage(escapeHtml(m.lastSeen), { time: escapeHtml(timeText(lang, session.lastSeenAt)) }),
    ...(session.clientAddress ? [fillMessage(escapeHtml(m.from), { address: escapeHtml(session.clientAddress) })] : []),
    ...(session.method ? [fillMessage(escapeHtml(m.via), { method: escapeHtml(session.method) })] : []),
  ]
  const action = session.current
    ? ''
    : form(
        `<input type="hidden" name="revoke" value="${escapeHtml(session.id)}" /><button type="submit" class="provider" aria-label="${escapeHtml(`${m.signOutDevice}: ${session.userAgent ?? '-'}`)}">${escapeHtml(m.signOutDevice)}</button>`,
      )
  return `<li><p class="device">${heading}</p><p class="facts">${facts.join('<br />')}</p>${action}</li>`
}

/** The page for the user's sessions, the current one first. */
export function renderSessionsPage(input: {
  actionUrl: string
  csrfToken: string
  sessions: readonly ShownSession[]
  theme?: Theme
  locale: PageLocale
}): string {
  const m = messagesOf(input.locale)
  const form = (inner: string) =>
    `<form action="${escapeHtml(input.actionUrl)}" method="POST"><input type="hidden" name="csrfToken" value="${escapeHtml(input.csrfToken)}" />${inner}</form>`
  const items = input.sessions.map((session) => entry(session, m, input.locale.lang, form)).join('')
  const others = input.sessions.some((session) => !session.current)
  const everywhere = others
    ? form(
        `<input type="hidden" name="revoke" value="others" /><button type="submit">${escapeHtml(m.signOutOthers)}</button>`,
      )
    : `<p>${escapeHtml(m.none)}</p>`
  return renderPage({
    title: m.title,
    content: `<h1>${escapeHtml(m.title)}</h1><p>${escapeHtml(m.intro)}</p><ul class="sessions">${items}</ul>${everywhere}`,
    locale: input.locale,
    theme: input.theme,
  })
}
