/**
 * Endpoints of a vendor that runs at an address of the app's choosing (a Mastodon server, a SAML Jackson
 * deployment): built on the instance URL given as `issuer`. Without one there are no endpoints at all, so the
 * provider's configuration check reports that an issuer or endpoints are missing, by name, rather than a relative
 * URL failing to parse somewhere later.
 */
import { trimSlash } from './names.js'

/** `build(base)` for the instance URL without its trailing slash, or no settings when there is no URL. */
export function instanceEndpoints<T extends object>(
  issuer: string | undefined,
  build: (base: string) => T,
): T | Record<string, never> {
  return issuer ? build(trimSlash(issuer)) : {}
}
