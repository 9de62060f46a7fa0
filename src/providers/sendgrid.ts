/**
 * E-mail link sign-in through SendGrid's v3 Mail Send API. API key: `apiKey`, else `AUTH_SENDGRID_KEY`.
 * @module providers/sendgrid
 */
import { signInHtml, signInSubject, signInText } from '../providers-internal/email-message.js'
import { sendVendorRequest, vendorApiBase, vendorApiKey } from '../providers-internal/email-vendor-request.js'
import type { EmailConfig } from '../types/providers.js'

/** SendGrid: `POST /v3/mail/send` with a bearer key; recipients under `personalizations`, bodies under `content`. */
export default function SendGrid(config: Partial<Omit<EmailConfig, 'options'>> = {}): EmailConfig {
  return {
    id: 'sendgrid',
    type: 'email',
    name: 'SendGrid',
    from: 'no-reply@authchart.invalid',
    maxAge: 24 * 60 * 60,
    async sendVerificationRequest({ identifier, url, provider, theme }) {
      await sendVendorRequest('SendGrid', `${vendorApiBase(provider, 'https://api.sendgrid.com')}/v3/mail/send`, {
        headers: { authorization: `Bearer ${vendorApiKey(provider)}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          personalizations: [{ to: [{ email: identifier }] }],
          from: { email: provider.from },
          subject: signInSubject(url),
          // SendGrid wants text/plain before text/html.
          content: [
            { type: 'text/plain', value: signInText({ url }) },
            { type: 'text/html', value: signInHtml({ url, theme }) },
          ],
        }),
      })
    },
    options: config,
  }
}
