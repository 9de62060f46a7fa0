/**
 * E-mail link sign-in through Loops' transactional API. The message is the Loops template `transactionalId`, which
 * receives the link as the data variable `url`. API key: `apiKey`, else `AUTH_LOOPS_KEY`.
 * @module providers/loops
 */
import { sendVendorRequest, vendorApiBase, vendorApiKey } from '../providers-internal/email-vendor-request.js'
import type { EmailConfig } from '../types/providers.js'

/** Loops: `POST /api/v1/transactional` with a bearer key; the template renders the message. */
export default function Loops(config: Partial<Omit<EmailConfig, 'options'>> = {}): EmailConfig {
  return {
    id: 'loops',
    type: 'email',
    name: 'Loops',
    from: 'Authchart <no-reply@authchart.invalid>',
    maxAge: 24 * 60 * 60,
    transactionalId: config.transactionalId ?? '',
    async sendVerificationRequest({ identifier, url, provider }) {
      if (!provider.transactionalId)
        throw new Error('Loops needs `transactionalId`, the template that carries the link')
      await sendVendorRequest('Loops', `${vendorApiBase(provider, 'https://app.loops.so')}/api/v1/transactional`, {
        headers: { authorization: `Bearer ${vendorApiKey(provider)}`, 'content-type': 'application/json' },
        body: JSON.stringify({ transactionalId: provider.transactionalId, email: identifier, dataVariables: { url } }),
      })
    },
    options: config,
  }
}
