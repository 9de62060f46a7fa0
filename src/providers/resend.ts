/**
 * E-mail link sign-in through Resend's HTTP API. API key: `apiKey`, else `AUTH_RESEND_KEY`.
 * @module providers/resend
 */
import { signInHtml, signInSubject, signInText } from '../providers-internal/email-message.js'
import { sendVendorRequest, vendorApiBase, vendorApiKey } from '../providers-internal/email-vendor-request.js'
import type { EmailConfig } from '../types/providers.js'

/** Resend: `POST /emails` with a bearer key and a JSON message. */
export default function Resend(config: Partial<Omit<EmailConfig, 'options'>> = {}): EmailConfig {
  return {
    id: 'resend',
    type: 'email',
    name: 'Resend',
    from: 'Authchart <no-reply@authchart.invalid>',
    maxAge: 24 * 60 * 60,
    async sendVerificationRequest({ identifier, url, provider, theme }) {
      await sendVendorRequest('Resend', `${vendorApiBase(provider, 'https://api.resend.com')}/emails`, {
        headers: { authorization: `Bearer ${vendorApiKey(provider)}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          from: provider.from,
          to: identifier,
          subject: signInSubject(url),
          html: signInHtml({ url, theme }),
          text: signInText({ url }),
        }),
      })
    },
    options: config,
  }
}
