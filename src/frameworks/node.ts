/**
 * The Node binding: a `(req, res)` listener for node:http (and any server that hands over Node's request and
 * response objects) that answers the auth endpoints.
 * @module frameworks/node
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AuthConfig } from '../types/index.js'
import { callAuth, prepareConfig } from './web-handler.js'

/** Builds the node:http listener for `config`. */
export function toNodeHandler(config: AuthConfig): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  prepareConfig(config)
  return async (req, res) => {
    const headers = new Headers()
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!)
    const response = await callAuth(
      new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers }),
      config,
    )
    const out: string[] = []
    response.headers.forEach((value, name) => {
      if (name !== 'set-cookie') out.push(name, value)
    })
    for (const cookie of response.headers.getSetCookie()) out.push('set-cookie', cookie)
    res.writeHead(response.status, out)
    res.end(Buffer.from(await response.arrayBuffer()))
  }
}
