/**
 * An e-mail sign-in through `Auth()` in its three requests: the form post that sends the link (`requestLink`), then
 * the link's confirmation page and its POST (`followLink`), each half with the jar of the browser that makes it.
 */
import { expect } from 'vitest'
import type { AuthConfig } from '../../src/types/index.js'
import { csrfToken, origin, send, type CookieJar } from './auth-harness.js'
import { confirmationFields } from './http-site.js'
import { signInLinkOf, type SmtpSink } from './smtp-sink.js'

/** Posts the sign-in form for `address` and brings back the link the mail carried. */
export async function requestLink(
  config: AuthConfig,
  smtp: SmtpSink,
  jar: CookieJar,
  address: string,
): Promise<{ sent: Response; link: URL }> {
  const seen = smtp.messages.length
  const sent = await send(config, '/auth/signin/email', {
    jar,
    form: { csrfToken: await csrfToken(config, jar), email: address },
  })
  expect(sent.status).toBe(302)
  return { sent, link: signInLinkOf(await smtp.next(seen)) }
}

/** Opens the link (the confirmation page) and posts its form; both answer as a sign-in that went through. */
export async function followLink(
  config: AuthConfig,
  link: URL,
  jar: CookieJar,
): Promise<{ confirm: Response; done: Response }> {
  const confirm = await send(config, `${link.pathname}${link.search}`, { jar })
  expect(confirm.status).toBe(200)
  const html = await confirm.clone().text()
  const action = (/<form action="([^"]+)"/.exec(html)?.[1] ?? '').replace(/&amp;/g, '&')
  const done = await send(config, action.replace(origin, ''), { jar, form: confirmationFields(html) })
  expect(done.status).toBe(302)
  expect(done.headers.get('location')).not.toContain('error=')
  return { confirm, done }
}
