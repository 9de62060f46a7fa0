/**
 * E-mail link sign-in through Forward Email's HTTP API. API key: `apiKey`, else `AUTH_FORWARDEMAIL_KEY`.
 * @module providers/forwardemail
 */
import { signInHtml, signInSubject, signInText } from '../providers-internal/email-message.js'
import { sendVendorRequest, vendorApiBase, vendorApiKey } from '../providers-internal/email-vendor-request.js'
import type { EmailConfig } from '../types/providers.js'

/** Forward Email: `POST /v1/emails`, HTTP Basic with the key as user name and no password, a JSON message. */
export default function ForwardEmail(config: Partial<Omit<EmailConfig, 'options'>> = {}): EmailConfig {
  return {
    id: 'forwardemail',
    type: 'email',
    name: 'Forward Email',
    from: 'Authchart <no-reply@authchart.invalid>',
    maxAge: 24 * 60 * 60,
    async sendVerificationRequest({ identifier, url, provider, theme }) {
      await sendVendorRequest('Forward Email', `${vendorApiBase(provider, 'https://api.forwardemail.net')}/v1/emails`, {
        headers: {
          authorization: `Basic ${Buffer.from(`${vendorApiKey(provider)}:`).toString('base64')}`,
          'content-type': 'application/json',
        },
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
