/**
 * E-mail link sign-in through Postmark's HTTP API. API key (a server token): `apiKey`, else `AUTH_POSTMARK_KEY`.
 * @module providers/postmark
 */
import { signInHtml, signInSubject, signInText } from '../providers-internal/email-message.js'
import { sendVendorRequest, vendorApiBase, vendorApiKey } from '../providers-internal/email-vendor-request.js'
import type { EmailConfig } from '../types/providers.js'

/** Postmark: `POST /email` with the `X-Postmark-Server-Token` header and PascalCase JSON fields. */
export default function Postmark(config: Partial<Omit<EmailConfig, 'options'>> = {}): EmailConfig {
  return {
    id: 'postmark',
    type: 'email',
    name: 'Postmark',
    from: 'Authchart <no-reply@authchart.invalid>',
    maxAge: 24 * 60 * 60,
    async sendVerificationRequest({ identifier, url, provider, theme }) {
      await sendVendorRequest('Postmark', `${vendorApiBase(provider, 'https://api.postmarkapp.com')}/email`, {
        headers: {
          accept: 'application/json',
          'content-type': 'application/json',
          'x-postmark-server-token': vendorApiKey(provider),
        },
        body: JSON.stringify({
          From: provider.from,
          To: identifier,
          Subject: signInSubject(url),
          TextBody: signInText({ url }),
          HtmlBody: signInHtml({ url, theme }),
          MessageStream: 'outbound',
        }),
      })
    },
    options: config,
  }
}
