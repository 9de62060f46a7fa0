/**
 * Who the client is, for the request limits: the socket's peer address, and behind proxies the app named in
 * `trustedProxies`, the hop of `X-Forwarded-For` that the outermost trusted proxy saw. Never a header alone: a header
 * is whatever the client wrote, so a key read from it would let a client escape its limit by sending a new value
 * each time, or lock another client out by naming that client's address.
 */
import ipaddr from 'ipaddr.js'

/**
 * How many proxies stand in front of the app, or their addresses, CIDR ranges and the names `loopback`,
 * `linklocal`, `uniquelocal` (as Express's `trust proxy`).
 */
export type TrustedProxies = number | readonly string[]

type Address = ipaddr.IPv4 | ipaddr.IPv6
type Range = [Address, number]

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

/**
 * An address as text, strictly: a dotted-quad IPv4 (no octal or short forms, which no proxy writes) or an IPv6, its
 * zone id dropped. `::ffff:203.0.113.9`, the IPv4 client of a dual-stack socket, is `203.0.113.9`.
 */
export function parseAddress(text: string): Address | undefined {
  const trimmed = text.trim()
  if (ipaddr.IPv4.isValidFourPartDecimal(trimmed)) return ipaddr.IPv4.parse(trimmed)
  if (!ipaddr.IPv6.isValid(trimmed)) return undefined
  const address = ipaddr.IPv6.parse(trimmed)
  if (address.isIPv4MappedAddress()) return address.toIPv4Address()
  address.zoneId = undefined
  return address
}

/** An IPv4 address in the form `textOf` writes: four decimal octets of 0 to 255, no leading zero, no space. */
const canonicalIpv4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/

/**
 * The peer as `textOf(parseAddress(peer))` writes it, when that is the peer itself (a canonical IPv4 address) or its
 * IPv4 part (`::ffff:` and a canonical IPv4 address, a dual-stack socket's IPv4 client); undefined otherwise. What a
 * socket reports nearly always, checked without parsing it into an object and writing it back: the session check
 * of a session-managed app reads the client's address for every record it writes.
 */
function canonicalIpv4Peer(peer: string): string | undefined {
  if (canonicalIpv4.test(peer)) return peer
  if (peer.length > 7 && peer.slice(0, 7).toLowerCase() === '::ffff:') {
    const ipv4 = peer.slice(7)
    if (canonicalIpv4.test(ipv4)) return ipv4
  }
  return undefined
}

/** An `X-Forwarded-For` hop: some proxies add the client's port (`203.0.113.9:51000`, `[2001:db8::1]:443`). */
function parseHop(text: string): Address | undefined {
  const hop = text.trim()
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(hop)
  if (bracketed) return parseAddress(bracketed[1] ?? '')
  const withPort = /^(\d+\.\d+\.\d+\.\d+):\d+$/.exec(hop)
  return parseAddress(withPort ? (withPort[1] ?? '') : hop)
}

/** The text of an address as keys and logs show it: dotted quad, or RFC 5952 IPv6 (`2001:db8::1`). */
function textOf(address: Address): string {
  return address.kind() === 'ipv6' ? (address as ipaddr.IPv6).toRFC5952String() : address.toString()
}

/** Express's names for address ranges in `trust proxy`, with the ranges it gives them. */
const namedRanges: Readonly<Record<string, readonly string[]>> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
}

/** One `trustedProxies` entry: an address, `address/prefix`, IPv4 `address/netmask`, or a name of `namedRanges`. */
function rangeOf(entry: string): Range | undefined {
  const [text = '', suffix, extra] = entry.trim().split('/')
  if (extra !== undefined) return undefined
  const address = parseAddress(text)
  if (!address) return undefined
  const ipv4 = address.kind() === 'ipv4'
  if (suffix === undefined) return [address, ipv4 ? 32 : 128]
  // `::ffff:10.0.0.0/104` is parsed as the IPv4 `10.0.0.0`: its prefix counts the IPv6 bits before the IPv4 ones.
  const skipped = ipv4 && text.includes(':') ? 96 : 0
  let bits: number | null
  if (/^\d{1,3}$/.test(suffix)) bits = Number(suffix) - skipped
  else bits = ipv4 && !skipped ? (parseAddress(suffix)?.prefixLengthFromSubnetMask() ?? null) : null
  if (bits === null || bits < 0 || bits > (ipv4 ? 32 : 128)) return undefined
  return [address, bits]
}

const trustLists = new WeakMap<readonly string[], readonly Range[]>()

/** The configured proxies as ranges, built once per list. */
function trustListOf(proxies: readonly string[]): readonly Range[] {
  let list = trustLists.get(proxies)
  if (list) return list
  const ranges: Range[] = []
  for (const entry of proxies) {
    const name = entry.trim().toLowerCase()
    for (const part of Object.hasOwn(namedRanges, name) ? (namedRanges[name] ?? []) : [entry]) {
      const range = rangeOf(part)
      if (!range)
        throw new TypeError(
          `trustedProxies: "${entry}" is not an IP address or CIDR range, nor loopback, linklocal or uniquelocal`,
        )
      ranges.push(range)
    }
  }
  list = ranges
  trustLists.set(proxies, list)
  return list
}

function isTrusted(list: readonly Range[], address: Address): boolean {
  return list.some(([range, bits]) => range.kind() === address.kind() && address.match(range, bits))
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
 * the address the next proxy saw, through the trusted proxies only (a count of hops, or the listed addresses). A hop
 * that is no address ends the walk at the proxy that passed it on: that proxy is then the client, so a forged hop
 * cannot buy a fresh budget. Undefined when the peer is unknown: only per-account and per-address limits then apply.
 */
export function clientAddress(
  peer: string | undefined,
  forwardedFor: string | null,
  proxies: TrustedProxies | undefined,
): string | undefined {
  if (peer === undefined || peer === '') return undefined
  const noProxy = proxies === undefined || proxies === 0 || (Array.isArray(proxies) && proxies.length === 0)
  if (noProxy) {
    const canonical = canonicalIpv4Peer(peer)
    if (canonical !== undefined) return canonical
  }
  const direct = parseAddress(peer)
  // A host that reports something else as its peer (a Unix socket path) is taken at its word.
  if (!direct) return peer.trim() || undefined
  if (noProxy) return textOf(direct)
  // Nearest first: the peer, then the hops the proxies appended, right to left, up to the first that is no address.
  const chain: Address[] = [direct]
  if (forwardedFor) {
    const hops = forwardedFor.split(',')
    for (let i = hops.length - 1; i >= 0; i -= 1) {
      const hop = parseHop(hops[i] ?? '')
      if (!hop) break
      chain.push(hop)
    }
  }
  if (typeof proxies === 'number') return textOf(chain[Math.min(proxies, chain.length - 1)] ?? direct)
  const list = trustListOf(proxies)
  let index = 0
  while (index < chain.length - 1 && isTrusted(list, chain[index] ?? direct)) index += 1
  return textOf(chain[index] ?? direct)
}

/**
 * The key the per-client limits count under for an address: an IPv4 address itself, an IPv6 address its /64. One
 * host (one home, one VPS) is given a whole /64 to pick addresses from, so keying each IPv6 address would hand it
 * 2^64 fresh budgets.
 */
export function clientLimitKey(address: string): string {
  const parsed = parseAddress(address)
  if (!parsed) return address
  if (parsed.kind() === 'ipv4') return parsed.toString()
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4)
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toRFC5952String()}/64`
}
