/**
 * Decoding a path segment without throwing. `decodeURIComponent` throws `URIError` on a malformed escape (`%E0%A4%A`,
 * a lone `%`), and a path is whatever the client wrote: every binding and the router decode through here, so such a
 * path is refused as an unknown one (400), never answered with a 500 and a stack.
 */

/** The decoded segment, or undefined when it is not valid percent-encoded UTF-8. */
export function decodePathSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}
