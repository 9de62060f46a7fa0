/**
 * E-mail link sign-in through Mailgun's messages API. API key: `apiKey`, else `AUTH_MAILGUN_KEY`. The sending
 * domain is the part of `from` after the `@`; `region: 'EU'` selects Mailgun's EU endpoint.
 * @module providers/mailgun
 */
import { signInHtml, signInSubject, signInText } from '../providers-internal/email-message.js'
import { sendVendorRequest, vendorApiBase, vendorApiKey } from '../providers-internal/email-vendor-request.js'
import type { EmailConfig } from '../types/providers.js'

const servers = { US: 'https://api.mailgun.net', EU: 'https://api.eu.mailgun.net' } as const

/** Mailgun: `POST /v3/<domain>/messages`, HTTP Basic `api:<key>`, a multipart form. */
export default function Mailgun(config: Partial<Omit<EmailConfig, 'options'>> = {}): EmailConfig {
  return {
    id: 'mailgun',
    type: 'email',
    name: 'Mailgun',
    from: 'no-reply@authchart.invalid',
    maxAge: 24 * 60 * 60,
    async sendVerificationRequest({ identifier, url, provider, theme }) {
      const address = /<([^<>]+)>\s*$/.exec(provider.from ?? '')?.[1] ?? provider.from ?? ''
      const domain = address.split('@')[1]
      if (!domain) throw new Error('Mailgun needs `from` to be an address on the sending domain')
      const form = new FormData()
      form.append('from', provider.from as string)
      form.append('to', identifier)
      form.append('subject', signInSubject(url))
      form.append('html', signInHtml({ url, theme }))
      form.append('text', signInText({ url }))
      const base = vendorApiBase(provider, servers[provider.region === 'EU' ? 'EU' : 'US'])
      await sendVendorRequest('Mailgun', `${base}/v3/${encodeURIComponent(domain)}/messages`, {
        headers: { authorization: `Basic ${Buffer.from(`api:${vendorApiKey(provider)}`).toString('base64')}` },
        body: form,
      })
    },
    options: config,
  }
}
