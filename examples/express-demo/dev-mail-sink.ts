/**
 * A development mail sink for the demo: e-mail sign-in links are kept in memory and shown on a page instead of
 * being sent, so the demo needs no mail server. Never use this in production: anyone who can open the page can sign
 * in as anyone.
 */
import type { EmailConfig } from '../../src/types/providers.js'

/** A message the sink kept. */
export interface SunkMessage {
  to: string
  url: string
  at: Date
}

/** The sink: the last 20 messages, newest first, and the `sendVerificationRequest` that fills it. */
export function createDevMailSink() {
  const messages: SunkMessage[] = []
  const sendVerificationRequest: EmailConfig['sendVerificationRequest'] = ({ identifier, url }) => {
    messages.unshift({ to: identifier, url, at: new Date() })
    messages.length = Math.min(messages.length, 20)
  }
  return { messages, sendVerificationRequest }
}
