/**
 * Who the client is, for the request limits: the socket's peer address, and behind proxies the app named in
 * `trustedProxies`, the hop of `X-Forwarded-For` that the outermost trusted proxy saw. Never a header alone: a header
 * is whatever the client wrote, so a key read from it would let a client escape its limit by sending a new value
 * each time, or lock another client out by naming that client's address.
 */
import { BlockList, isIP } from 'node:net'

/** How many proxies stand in front of the app, or their addresses and CIDR ranges (as Express's `trust proxy`). */
export type TrustedProxies = number | readonly string[]

/**
 * The peer addresses hosts that start from a web `Request` passed in (`setClientAddress`): a fetch-style server knows
 * the socket (Bun's `server.requestIP(request)`, Deno's `info.remoteAddr`), the `Request` does not.
 */
const peerAddresses = new WeakMap<Request, string>()

/**
 * Tells Authchart the address of the client that sent `request` (the socket's peer), for hosts that hand `Auth()` a
 * web `Request`: the request limits key a client by it. The bindings call it themselves.
 */
export function setClientAddress(request: Request, address: string | undefined | null): void {
  if (typeof address === 'string' && address !== '') peerAddresses.set(request, address)
}

/** The peer address set for `request`, if any. */
export function clientAddressOf(request: Request): string | undefined {
  return peerAddresses.get(request)
}

/** `::ffff:203.0.113.9` is the IPv4 client of a dual-stack socket: keyed as `203.0.113.9`. */
function plainAddress(address: string): string {
  const trimmed = address.trim()
  return trimmed.toLowerCase().startsWith('::ffff:') && isIP(trimmed.slice(7)) === 4 ? trimmed.slice(7) : trimmed
}

const trustLists = new WeakMap<readonly string[], BlockList>()

/** The configured proxies as a `BlockList` (addresses and CIDR ranges, IPv4 and IPv6), built once per list. */
function trustListOf(proxies: readonly string[]): BlockList {
  let list = trustLists.get(proxies)
  if (list) return list
  list = new BlockList()
  for (const entry of proxies) {
    const [address = '', prefix] = entry.trim().split('/')
    const family = isIP(address)
    if (family === 0) throw new TypeError(`trustedProxies: "${entry}" is not an IP address or CIDR range`)
    const type = family === 4 ? 'ipv4' : 'ipv6'
    if (prefix === undefined) list.addAddress(address, type)
    else list.addSubnet(address, Number(prefix), type)
  }
  trustLists.set(proxies, list)
  return list
}

function isTrusted(list: BlockList, address: string): boolean {
  const family = isIP(address)
  return family !== 0 && list.check(address, family === 4 ? 'ipv4' : 'ipv6')
}

/** Checks a `trustedProxies` setting at start-up; the error names what is wrong. */
export function trustedProxiesProblem(proxies: unknown): string | undefined {
  if (proxies === undefined) return undefined
  if (typeof proxies === 'number')
    return Number.isInteger(proxies) && proxies >= 0 ? undefined : 'a whole number of proxies, 0 or more'
  if (!Array.isArray(proxies) || !proxies.every((entry) => typeof entry === 'string'))
    return 'a number or a list of addresses'
  try {
    trustListOf(proxies)
    return undefined
  } catch (err) {
    return err instanceof Error ? err.message : 'a list of addresses'
  }
}

/**
 * The client's address: the peer when no proxy is trusted; else `X-Forwarded-For` read from the right, each hop
 * the address the next proxy saw, through the trusted proxies only (a count of hops, or the listed addresses).
 * Undefined when the peer is unknown: only per-account and per-address limits then apply.
 */
export function clientAddress(
  peer: string | undefined,
  forwardedFor: string | null,
  proxies: TrustedProxies | undefined,
): string | undefined {
  if (peer === undefined || peer === '') return undefined
  const direct = plainAddress(peer)
  if (proxies === undefined || proxies === 0 || (Array.isArray(proxies) && proxies.length === 0)) return direct
  // Nearest first: the peer, then the hops the proxies appended, right to left.
  const chain = [direct]
  if (forwardedFor) {
    const hops = forwardedFor.split(',')
    for (let i = hops.length - 1; i >= 0; i -= 1) {
      const hop = plainAddress(hops[i] ?? '')
      if (hop !== '') chain.push(hop)
    }
  }
  if (typeof proxies === 'number') return chain[Math.min(proxies, chain.length - 1)]
  const list = trustListOf(proxies)
  let index = 0
  while (index < chain.length - 1 && isTrusted(list, chain[index] ?? '')) index += 1
  return chain[index]
}
