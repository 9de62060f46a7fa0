/**
 * Whether a wildcard allow-list entry's base is a registrable domain. `https://*.vercel.app` or `https://*.co.uk`
 * looks narrow but lets anyone who can rent a subdomain there (every customer of the host, every buyer of a
 * `.co.uk` name) receive what the allow-list guards, so a wildcard must sit under a domain someone owns. The
 * Public Suffix List, private section included, is what browsers use for the same question (cookie scope).
 */
import { getDomain } from 'tldts'

/** `localhost` never leaves the machine, so `*.localhost` is the one wildcard over a name nobody registers. */
const localOnly = 'localhost'

/** True when `host` (the part after `*.`) is a registrable domain or below one, or `localhost`. */
export function isOwnableWildcardBase(host: string): boolean {
  if (host === localOnly) return true
  return getDomain(host, { allowPrivateDomains: true }) !== null
}
