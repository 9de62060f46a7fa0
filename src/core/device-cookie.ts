/**
 * Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"): a browser that signed in to an
 * account with the right credentials gets a cookie bound to that account. Its later attempts for that account are
 * counted on the device's own budget (machines/credentials.ts), so strangers who lock the account out by guessing do
 * not lock out its owner, while every other client still meets the account's lockout.
 *
 * The value is `<id>.<mac>`: a random id and an HMAC over the id and the account's digest under the auth secret. It
 * names no account (a stolen cookie tells nothing), cannot be made for an account without the secret, and is only
 * "known" for the account it was issued to. Every configured secret verifies, the first one signs (rotation).
 */
import { createHmac } from 'node:crypto'
import { failureSubject } from '../providers-internal/credentials-limits.js'
import { constantTimeEqual } from '../security/constant-time.js'
import { randomToken } from '../security/random.js'
import type { CookieRecord } from '../types/cookies.js'
import type { RequestContext } from './context.js'

const idPattern = /^[A-Za-z0-9_-]{22,64}$/

function macOf(secret: string, id: string, subject: string): string {
  return createHmac('sha256', secret).update(`authchart-device\u0000${subject}\u0000${id}`).digest('base64url')
}

/** The device id of the request's cookie when it verifies for `account` of `providerId`; else undefined. */
export function knownDeviceOf(
  ctx: RequestContext,
  providerId: string,
  account: string | undefined,
): string | undefined {
  if (account === undefined) return undefined
  const value = ctx.req.cookies.get(ctx.cookies.device.name)
  if (typeof value !== 'string' || value.length > 200) return undefined
  const dot = value.indexOf('.')
  const id = value.slice(0, dot)
  if (dot < 0 || !idPattern.test(id)) return undefined
  const subject = failureSubject(providerId, account)
  const mac = value.slice(dot + 1)
  return ctx.config.secrets.some((secret) => constantTimeEqual(macOf(secret, id, subject), mac)) ? id : undefined
}

/** A fresh device cookie for `account` of `providerId`, signed with the first secret. */
export function deviceCookieFor(ctx: RequestContext, providerId: string, account: string): CookieRecord {
  const id = randomToken(18)
  const value = `${id}.${macOf(ctx.config.secrets[0], id, failureSubject(providerId, account))}`
  return { name: ctx.cookies.device.name, value, options: ctx.cookies.device.options }
}
