/**
 * A TCP proxy a test controls, in front of a real server (PostgreSQL, Redis): `stall()` stops moving bytes in both
 * directions while keeping every connection open, as a database does that hangs on a lock, a full disk or a network
 * that drops packets without resetting; `resume()` lets the held bytes through. `refuse()` is a server that went
 * away: every open connection is reset and each new one is closed at once, until `accept()`. Nothing is answered by
 * the proxy.
 */
import { createServer, connect, type AddressInfo, type Socket } from 'node:net'

export interface StallProxy {
  port: number
  stall(): void
  resume(): void
  refuse(): void
  accept(): void
  close(): Promise<void>
}

export async function startStallProxy(target: { host: string; port: number }): Promise<StallProxy> {
  const sockets = new Set<Socket>()
  /** Bytes held while stalled, each with the socket it is bound for, in arrival order. */
  let held: Array<[Socket, Buffer]> = []
  let stalled = false
  let refusing = false
  const forward = (to: Socket) => (chunk: Buffer) => {
    if (stalled) held.push([to, chunk])
    else to.write(chunk)
  }
  const server = createServer((client) => {
    if (refusing) {
      client.resetAndDestroy()
      return
    }
    const upstream = connect(target.port, target.host)
    sockets.add(client).add(upstream)
    client.on('data', forward(upstream))
    upstream.on('data', forward(client))
    const end = () => {
      sockets.delete(client)
      sockets.delete(upstream)
      client.destroy()
      upstream.destroy()
    }
    client.on('error', end).on('close', end)
    upstream.on('error', end).on('close', end)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as AddressInfo).port,
    stall() {
      stalled = true
    },
    resume() {
      stalled = false
      const release = held
      held = []
      for (const [to, chunk] of release) if (!to.destroyed) to.write(chunk)
    },
    refuse() {
      refusing = true
      for (const socket of sockets) socket.resetAndDestroy()
    },
    accept() {
      refusing = false
    },
    async close() {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
