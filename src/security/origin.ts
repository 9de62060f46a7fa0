/**
 * Origins: where Authchart's own URLs point, and which origins a redirect proxy may forward to. The configured URL
 * (`url` / `AUTH_URL`) always wins over anything a request says; a request's `Host` is used only when no URL is
 * configured and `trustHost` is on, and then only after `isUsableHost` accepted it.
 */

/** A DNS name, an IPv4 address or a bracketed IPv6 address, and an optional port: nothing that could bend a URL. */
const hostPattern =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9_-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9_-]{0,62}[A-Za-z0-9])?)*\.?|\[[0-9A-Fa-f:.]{2,45}\])(?::(\d{1,5}))?$/

/** Longest host accepted (RFC 1035: 253 characters of name, plus a port). */
const maxHostLength = 260

/** The host last accepted: a site's requests name one host over and over, and the pattern need not run each time. */
let lastUsableHost: string | undefined

/** Whether a `Host` (or `X-Forwarded-Host`) value is a well-formed host with a port in 1–65535. */
export function isUsableHost(host: string | null | undefined): boolean {
  if (typeof host !== 'string' || host.length === 0 || host.length > maxHostLength) return false
  if (host === lastUsableHost) return true
  const match = hostPattern.exec(host)
  if (!match) return false
  const port = match[1]
  const usable = port === undefined || (Number(port) >= 1 && Number(port) <= 65535)
  if (usable) lastUsableHost = host
  return usable
}

/** The origin of an absolute http(s) URL without user info, or undefined when `value` is not one. */
export function originOfUrl(value: string | URL): string | undefined {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return undefined
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password || !url.hostname)
    return undefined
  return url.origin
}

/** One allow-list entry: an exact origin, or `scheme://*.suffix[:port]` where `*` stands for one or more labels. */
interface OriginPattern {
  scheme: string
  /** Exact host, or the suffix after `*.` for a wildcard. */
  host: string
  wildcard: boolean
  port: string
}

const label = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?'
const labelsPattern = new RegExp(`^${label}(?:\\.${label})*$`)

/** Parses an allow-list entry; undefined when it is neither an exact origin nor a leading-wildcard pattern. */
export function parseOriginPattern(entry: string): OriginPattern | undefined {
  const match = /^(https?):\/\/(\*\.)?([^/:?#@]+)(?::(\d{1,5}))?\/?$/i.exec(entry.trim())
  if (!match) return undefined
  const [, scheme, star, host, port] = match
  const lowerHost = host.toLowerCase()
  if (!labelsPattern.test(lowerHost)) return undefined
  // A wildcard over a bare top-level domain (`https://*.com`) would allow the whole internet; `*.localhost` stays local.
  if (star && !lowerHost.includes('.') && lowerHost !== 'localhost') return undefined
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return undefined
  const lowerScheme = scheme.toLowerCase()
  const defaultPort = lowerScheme === 'https' ? '443' : '80'
  return {
    scheme: lowerScheme,
    host: lowerHost,
    wildcard: Boolean(star),
    port: port === undefined || port === defaultPort ? '' : String(Number(port)),
  }
}

/** A predicate over origins, built once from the allow-list. */
export type OriginAllowList = (origin: string) => boolean

/**
 * Compiles the allow-list; `invalid` receives each entry that is not a usable pattern (the caller refuses the config).
 * @param ownableBase whether a wildcard's base is a domain someone owns, not a public suffix such as `vercel.app`;
 *   the Public Suffix List lives outside this leaf folder, so the caller supplies the check
 */
export function compileOriginAllowList(
  entries: readonly string[],
  invalid: (entry: string, why?: string) => void,
  ownableBase: (host: string) => boolean = () => true,
): OriginAllowList {
  const patterns: OriginPattern[] = []
  for (const entry of entries) {
    const pattern = parseOriginPattern(entry)
    if (!pattern) invalid(entry)
    else if (pattern.wildcard && !ownableBase(pattern.host))
      invalid(entry, `puts a wildcard over the public suffix "${pattern.host}", which anyone can register under`)
    else patterns.push(pattern)
  }
  return (origin) => {
    let url: URL
    try {
      url = new URL(origin)
    } catch {
      return false
    }
    if (url.username || url.password || (url.pathname !== '/' && url.pathname !== '') || url.search || url.hash)
      return false
    const scheme = url.protocol.slice(0, -1)
    const host = url.hostname.toLowerCase()
    return patterns.some(
      (p) =>
        p.scheme === scheme &&
        p.port === url.port &&
        (p.wildcard
          ? host.endsWith(`.${p.host}`) && labelsPattern.test(host.slice(0, -p.host.length - 1))
          : host === p.host),
    )
  }
}
