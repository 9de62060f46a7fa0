/**
 * Ports for servers a test starts as a child process and must name before it runs (an OP's redirect URIs, AUTH_URL).
 *
 * A port the OS hands out with `listen(0)` and which we then let go comes from the ephemeral range, where every other
 * server the parallel test files start with `listen(0)` (an oidc-provider, an SMTP sink, a Node site) also lands: one
 * of them can take it before our child binds, the child then fails with EADDRINUSE, and a readiness probe that only asks
 * "does something answer?" talks to the stranger (a CI run saw a Next.js app's every page answer koa's "Not Found").
 * So the port is drawn from below the ephemeral range, where `listen(0)` never lands, and must be free on both loopback
 * families, since `localhost` may resolve to ::1 first.
 */
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'

/** The lowest port the kernel hands out for `listen(0)` (Linux's default when /proc does not say). */
function ephemeralFloor(): number {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)
    const floor = Number(low)
    return Number.isInteger(floor) && floor > 2048 ? floor : 32_768
  } catch {
    return 32_768
  }
}

/** Ports this process has handed out, so two calls never share one before either is bound. */
const handedOut = new Set<number>()

/** Whether `port` can be bound on `host` right now; a host this machine lacks (no IPv6) does not count against it. */
function bindable(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer()
    server.unref()
    server.once('error', (err: NodeJS.ErrnoException) =>
      resolve(err.code === 'EADDRNOTAVAIL' || err.code === 'EAFNOSUPPORT'),
    )
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)))
  })
}

/** A port below the ephemeral range that nobody listens on, on 127.0.0.1 or ::1, and not handed out before here. */
export async function freePort(): Promise<number> {
  const floor = ephemeralFloor()
  const low = Math.max(10_000, floor - 12_000)
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = low + Math.floor(Math.random() * (floor - low))
    if (handedOut.has(port)) continue
    if ((await bindable(port, '127.0.0.1')) && (await bindable(port, '::1'))) {
      handedOut.add(port)
      return port
    }
  }
  throw new Error(`no free port between ${low} and ${floor}`)
}
