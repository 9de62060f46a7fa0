/**
 * The generic e-mail provider (id `email`): the nodemailer provider under Auth.js's older name. Give it your own
 * `sendVerificationRequest` to deliver the link any other way.
 * @module providers/email
 */
import Nodemailer, { type NodemailerUserConfig } from './nodemailer.js'
import type { EmailConfig } from '../types/providers.js'

export type EmailUserConfig = NodemailerUserConfig

// The counters behind every e-mail provider's `rateLimit` option (docs/email.md): Redis for several instances.
export {
  defaultEmailRequestLimits,
  MemoryRequestCounter,
  RedisRequestCounter,
} from '../providers-internal/email-request-limits.js'
export type {
  EmailRequestLimits,
  RedisCounterClient,
  RequestCounter,
} from '../providers-internal/email-request-limits.js'

/** The `email` provider: SMTP through nodemailer unless `sendVerificationRequest` is given. */
export default function Email(config: EmailUserConfig): EmailConfig {
  return { ...Nodemailer(config), id: 'email', name: 'Email' }
}
