/**
 * The framework-neutral binding: a `(request: Request) => Promise<Response>` for servers that speak Web fetch
 * (Hono, Bun.serve, Deno.serve, Cloudflare-style handlers). Route the base path's requests to it.
 *
 * @example
 * ```ts
 * import { toWebHandler } from 'authchart/web'
 * const auth = toWebHandler({ providers: [GitHub], secret: process.env.AUTH_SECRET })
 * Bun.serve({ fetch: (req) => new URL(req.url).pathname.startsWith('/auth/') ? auth(req) : app(req) })
 * ```
 * @module frameworks/web-handler
 */
import { Auth } from '../core/auth.js'
import { assertConfig } from '../core/config-assertion.js'
import { setEnvDefaults } from '../core/env.js'
import { FlowStoreUnavailable, InvalidConfig } from '../errors.js'
import { createLogger } from '../logger.js'
import type { AuthConfig } from '../types/index.js'

const prepared = new WeakSet<AuthConfig>()
/** Prepared configs whose base path is the default: neither the config nor the path of AUTH_URL named one. */
const defaultBasePath = new WeakSet<AuthConfig>()

function environment(): Record<string, string | undefined> {
  return typeof process === 'undefined' ? {} : process.env
}

/**
 * Applies the environment defaults (AUTH_SECRET, AUTH_URL, AUTH_TRUST_HOST, provider ids and secrets, base path
 * `/auth`) to `config`, once per config object, as Auth.js's bindings do, then checks the result: what is wrong is
 * logged now, when the handler is made, not at the first request. Returns the same object.
 */
export function prepareConfig<C extends AuthConfig>(config: C): C {
  if (!prepared.has(config)) {
    const named = config.basePath !== undefined || authUrlNamesPath(environment().AUTH_URL)
    setEnvDefaults(environment(), config)
    prepared.add(config)
    if (!named) defaultBasePath.add(config)
    assertConfig(config)
  }
  return config
}

function authUrlNamesPath(authUrl: string | undefined): boolean {
  if (!authUrl) return false
  try {
    return new URL(authUrl).pathname.replace(/\/+$/, '') !== ''
  } catch {
    return false
  }
}

/** Whether a prepared config's base path is the default `/auth`, set by no option and no AUTH_URL path. */
export function basePathIsDefault(config: AuthConfig): boolean {
  return defaultBasePath.has(config)
}

/** The base path of a prepared config, without a trailing slash (`''` when the app serves auth at the root). */
export function basePathOf(config: AuthConfig): string {
  return (config.basePath ?? '/auth').replace(/\/+$/, '')
}

/** Whether `pathname` is the base path itself or lies below it (`/auth`, `/auth/…`, but not `/authors`). */
export function isUnderBasePath(pathname: string, basePath: string): boolean {
  return basePath === '' || pathname === basePath || pathname.startsWith(`${basePath}/`)
}

/**
 * `Auth()` for bindings: the same call, plus a last line of defence. `Auth()` answers every failure itself; should
 * anything still escape, the client gets a bare 503 or 500 and the log gets the error, never a stack trace.
 */
export async function callAuth(request: Request, config: AuthConfig): Promise<Response> {
  try {
    const response: unknown = await Auth(request, config)
    if (response instanceof Response) return response
    throw new InvalidConfig('Auth() returned an internal response: bindings need a config without `raw`')
  } catch (error) {
    createLogger(config).error(error instanceof Error ? error : new Error(String(error)))
    const status = error instanceof FlowStoreUnavailable ? 503 : 500
    return new Response(status === 503 ? 'Service Unavailable' : 'Internal Server Error', {
      status,
      headers: {
        'content-type': 'text/plain; charset=utf-8',
        'cache-control': 'no-store',
        ...(status === 503 ? { 'retry-after': '5' } : {}),
      },
    })
  }
}

/** Builds the fetch-style handler for `config` (environment defaults applied once, here). */
export function toWebHandler(config: AuthConfig): (request: Request) => Promise<Response> {
  prepareConfig(config)
  return (request) => callAuth(request, config)
}
