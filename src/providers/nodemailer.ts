/**
 * E-mail link sign-in through SMTP with nodemailer (an optional peer, loaded only when a message is sent).
 * @module providers/nodemailer
 */
import { InvalidConfig } from '../errors.js'
import { signInHtml, signInSubject, signInText } from '../providers-internal/email-message.js'
import type { EmailConfig } from '../types/providers.js'

/** Options of the nodemailer provider: `server` is an SMTP URL or nodemailer transport options. */
export type NodemailerUserConfig = Partial<Omit<EmailConfig, 'options'>>

/** Delivery by SMTP; answers when the server accepted the message for every recipient. */
export async function sendWithNodemailer(params: Parameters<EmailConfig['sendVerificationRequest']>[0]): Promise<void> {
  const { identifier, url, provider, theme } = params
  const { createTransport } = await import('nodemailer')
  const transport = createTransport(provider.server as Parameters<typeof createTransport>[0])
  const result = await transport.sendMail({
    to: identifier,
    from: provider.from,
    subject: signInSubject(url),
    text: signInText({ url }),
    html: signInHtml({ url, theme }),
  })
  const refused = [...(result.rejected ?? []), ...((result as { pending?: unknown[] }).pending ?? [])].filter(Boolean)
  if (refused.length > 0)
    throw new Error(`the SMTP server did not accept the message for ${refused.length} recipient(s)`)
}

/**
 * The nodemailer provider, as Auth.js's: id `nodemailer`.
 * @throws InvalidConfig when no `server` is given
 */
export default function Nodemailer(config: NodemailerUserConfig): EmailConfig {
  const ownDelivery = typeof config?.sendVerificationRequest === 'function'
  if (!config || (!ownDelivery && (config.server === undefined || config.server === null || config.server === ''))) {
    throw new InvalidConfig(
      'the nodemailer provider needs a `server` (an SMTP URL or nodemailer options) or its own sendVerificationRequest',
    )
  }
  return {
    id: 'nodemailer',
    type: 'email',
    name: 'Nodemailer',
    server: { host: 'localhost', port: 25, auth: { user: '', pass: '' } },
    from: 'Authchart <no-reply@authchart.invalid>',
    maxAge: 24 * 60 * 60,
    sendVerificationRequest: sendWithNodemailer,
    options: config,
  }
}
