/**
 * Where `ExpressAuth` serves: its base path comes from where the app mounted it, as `@auth/express` reads it
 * (`req.baseUrl`, less the part a wildcard matched), unless the configuration names one.
 *
 * - `app.use('/api/auth', ExpressAuth(config))`, `app.use('/api/auth/*', ...)` (Express 4) and
 *   `app.use('/api/auth/{*splat}', ...)` (Express 5) all serve under `/api/auth` with no `basePath` set.
 * - `app.use(ExpressAuth(config))` sees every request: it serves under `basePath` (default `/auth`) and passes the
 *   rest on, as before.
 * - A configured `basePath` (or the path of `AUTH_URL`) always wins. Mounted where none of its requests can lie under
 *   it, the middleware passes them on and logs `express-mount-basepath-mismatch` once, naming both paths.
 * @module frameworks/express-mount
 */
import type { Request as ExpressRequest } from 'express'
import type { LoggerInstance } from '../logger.js'
import { decodePathSegment } from '../core/path-segment.js'
import type { AuthConfig } from '../types/index.js'
import { basePathIsDefault, basePathOf, isUnderBasePath } from './web-handler.js'

/** Mount paths remembered per middleware: enough for every static mount; a parameterised one may exceed it. */
const maxRemembered = 64

/** A segment as the wildcard's value holds it; one that cannot be decoded is compared as it is. */
function decoded(segment: string): string {
  return decodePathSegment(segment) ?? segment
}

/** The decoded path a trailing wildcard matched: Express 5 gives a named splat as segments, Express 4 `*` as `0`. */
function wildcardOf(params: unknown): string | undefined {
  if (typeof params !== 'object' || params === null) return undefined
  const values = Object.values(params as Record<string, unknown>)
  const splat = values.filter((value): value is string[] => Array.isArray(value)).at(-1)
  if (splat) return splat.join('/')
  const unnamed = (params as Record<string, unknown>)['0']
  return typeof unnamed === 'string' ? unnamed : undefined
}

/**
 * The path the middleware is mounted at, without a trailing slash: `''` when it was added without a path (or at
 * `/`), so that it sees every request.
 */
export function mountPathOf(req: Pick<ExpressRequest, 'baseUrl' | 'params'>): string {
  const baseUrl = req.baseUrl
  if (!baseUrl || baseUrl === '/') return ''
  const wildcard = wildcardOf(req.params)
  if (wildcard) {
    // baseUrl is the raw path up to the end of the match; the wildcard's value is decoded: compare segment-wise.
    const segments = baseUrl.split('/')
    for (let count = 1; count < segments.length; count++) {
      if (segments.slice(-count).map(decoded).join('/') === wildcard) {
        return segments.slice(0, -count).join('/').replace(/\/+$/, '')
      }
    }
  }
  return baseUrl.replace(/\/+$/, '')
}

/** What to do with a request that reached the middleware: answer it with this config, or pass it on. */
export type MountDecision = { serve: AuthConfig } | { pass: true }

/**
 * Decides, per request, under which base path `config` answers. `config` must already be prepared
 * (`prepareConfig`), so that `basePathIsDefault` tells a configured base path from the default.
 */
export function mountedBasePaths(config: AuthConfig, logger: () => LoggerInstance) {
  const configured = !basePathIsDefault(config)
  const atMount = new Map<string, AuthConfig>()
  const reported = new Set<string>()

  /** The config answering under `mounted`: the app's own object when the paths agree, else a copy once per path. */
  function configAt(mounted: string): AuthConfig {
    if (mounted === basePathOf(config)) return config
    const known = atMount.get(mounted)
    if (known) return known
    const copy: AuthConfig = { ...config, basePath: mounted }
    if (atMount.size < maxRemembered) atMount.set(mounted, copy)
    return copy
  }

  function reportMismatch(mounted: string, basePath: string): void {
    if (reported.has(mounted) || reported.size >= maxRemembered) return
    reported.add(mounted)
    logger().warn('express-mount-basepath-mismatch', {
      reason:
        'no request this mount receives lies under basePath: remove basePath (the mount path is used) or mount there',
      mountPath: mounted,
      basePath: basePath || '/',
    })
  }

  return (req: Pick<ExpressRequest, 'baseUrl' | 'params'>, pathname: string): MountDecision => {
    const mounted = mountPathOf(req)
    const basePath = basePathOf(config)
    if (mounted === '') return isUnderBasePath(pathname, basePath) ? { serve: config } : { pass: true }
    if (!configured) return { serve: configAt(mounted) }
    if (isUnderBasePath(pathname, basePath)) return { serve: config }
    // Mounted above the base path (`app.use('/api', ...)` with basePath `/api/auth`): the app's other routes pass by.
    if (!isUnderBasePath(basePath, mounted)) reportMismatch(mounted, basePath)
    return { pass: true }
  }
}
