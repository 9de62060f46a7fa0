/** Reads a node:http request body as text (the fake servers in test/ take small form and JSON bodies). */
import type { IncomingMessage } from 'node:http'

/** The whole body of `req`, decoded as UTF-8. */
export function readRequestBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => (text += chunk))
    req.on('end', () => resolve(text))
    req.on('error', reject)
  })
}
