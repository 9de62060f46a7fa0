/**
 * A real SMTP server (`smtp-server`) on a loopback port chosen by the OS, keeping every message it accepts, parsed
 * by `mailparser`. Tests send through nodemailer to it and read the sign-in link out of the delivered message.
 */
import type { AddressInfo } from 'node:net'
import { simpleParser, type ParsedMail } from 'mailparser'
import { SMTPServer } from 'smtp-server'

export interface DeliveredMail {
  /** RCPT TO addresses of the SMTP envelope: where the server was asked to deliver. */
  envelopeTo: string[]
  parsed: ParsedMail
}

export interface SmtpSink {
  /** `smtp://127.0.0.1:<port>`, for nodemailer's `server`. */
  url: string
  messages: DeliveredMail[]
  /** Resolves with the next message delivered (or one already waiting beyond `seen`). */
  next(seen?: number, timeoutMs?: number): Promise<DeliveredMail>
  close(): Promise<void>
}

/** Starts the sink. */
export async function startSmtpSink(): Promise<SmtpSink> {
  const messages: DeliveredMail[] = []
  const waiters: Array<() => void> = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (parsed) => {
          messages.push({ envelopeTo: session.envelope.rcptTo.map((r) => r.address), parsed })
          for (const wake of waiters.splice(0)) wake()
          callback()
        },
        (err: Error) => callback(err),
      )
    },
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.server.address() as AddressInfo
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async next(seen = messages.length, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs
      while (messages.length <= seen) {
        if (Date.now() > deadline) throw new Error('no message arrived at the SMTP sink')
        await new Promise<void>((resolve) => {
          waiters.push(resolve)
          setTimeout(resolve, 100)
        })
      }
      return messages[seen]
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** The sign-in link of a delivered message: the `href` of its HTML button, checked against the text body's link. */
export function signInLinkOf(mail: DeliveredMail): URL {
  const html = typeof mail.parsed.html === 'string' ? mail.parsed.html : ''
  const href = /<a href="([^"]+)"/.exec(html)?.[1]
  if (!href) throw new Error('the message has no link')
  const link = new URL(href.replace(/&amp;/g, '&'))
  const text = mail.parsed.text ?? ''
  if (!text.includes(link.href)) throw new Error('the text body does not carry the same link')
  return link
}
