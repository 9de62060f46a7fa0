/**
 * Which hosts may be reached over plain `http:`. Only the local machine: a request to a loopback address never
 * leaves the host, so there is no network for TLS to protect. Everything else must use `https:`.
 */

/** Whether `hostname` (as `URL.hostname` gives it) names the local machine: 127.0.0.0/8, ::1 or localhost. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase()
  if (host === 'localhost' || host.endsWith('.localhost')) return true
  if (host === '[::1]' || host === '::1') return true
  const octets = host.split('.')
  return (
    octets.length === 4 && octets[0] === '127' && octets.every((part) => /^\d{1,3}$/.test(part) && Number(part) <= 255)
  )
}

/** Whether `url` may be requested: `https:` anywhere, `http:` only on a loopback host. */
export function isAllowedEndpointUrl(url: URL): boolean {
  if (url.protocol === 'https:') return true
  return url.protocol === 'http:' && isLoopbackHost(url.hostname)
}
