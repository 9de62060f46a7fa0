/**
 * Where the catch-all route that received a request is mounted, read from the request and the route's parameters:
 * SolidStart gives a catch-all parameter (`[...solidauth]`) the rest of the path, so the mount path is what precedes
 * it. A route module cannot learn its own path before its first request, so that is when a mismatch is found.
 */
import { decodePathSegment } from '../../core/path-segment.js'

/** The mount path of the route `event` reached, or undefined when its parameters do not tell. */
export function mountPathOf(pathname: string, params: unknown): string | undefined {
  if (typeof params !== 'object' || params === null) return undefined
  const path = safeDecode(pathname).replace(/\/+$/, '')
  for (const value of Object.values(params as Record<string, unknown>)) {
    const rest = Array.isArray(value) ? value.join('/') : value
    if (typeof rest !== 'string' || rest === '') continue
    const suffix = `/${safeDecode(rest).replace(/^\/+|\/+$/g, '')}`
    if (path.endsWith(suffix)) return path.slice(0, -suffix.length)
  }
  return undefined
}

/** A path as the route's parameters hold it; one that cannot be decoded is compared as it is. */
function safeDecode(value: string): string {
  return decodePathSegment(value) ?? value
}

/** The message for a route mounted at `mounted` while the configuration says `prefix`. */
export function mountMismatchMessage(mounted: string, prefix: string): string {
  return (
    `SolidAuth: the auth route is mounted at ${mounted || '/'} but the configured prefix (basePath) is ${prefix || '/'}; ` +
    `move the route to src/routes${prefix}/[...solidauth].ts or set \`prefix: '${mounted}'\`. Callback URLs use the prefix, so they would reach no route.`
  )
}
