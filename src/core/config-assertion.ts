/**
 * The configuration checked once per config object, when the handler is made (`ExpressAuth(config)`,
 * `toWebHandler(config)`, `SolidAuth(config)`) or on the first request `Auth()` sees for it: a missing secret, an
 * untrusted host or a provider that cannot work is logged then, once, with what to do. An operator sees it when the
 * server starts, not only when a request happens to reach the broken part, and a broken configuration does not
 * repeat the same error on every request.
 */
import { AuthError, UntrustedHost } from '../errors.js'
import { createLogger, withHint } from '../logger.js'
import { normalizeOAuthProvider } from '../providers-internal/normalize-oauth.js'
import { failureStoreProblem } from './credentials-failure-limits.js'
import type { AuthConfig } from '../types/index.js'
import { resolveConfig, type ResolvedConfig } from './config.js'

const asserted = new WeakSet<object>()
/** Per config object, why it cannot be resolved (a missing secret, a bad option), when it cannot. */
const broken = new WeakMap<object, Error>()
/** Per config object, the error types already logged as configuration problems. */
const reported = new WeakMap<object, Set<string>>()

/**
 * An untrusted host, with Auth.js's message (naming the request's URL when there is one; at start-up there is
 * none) and what the operator must do as the hint.
 */
export function untrustedHost(url?: string): UntrustedHost {
  return withHint(
    new UntrustedHost(`Host must be trusted.${url === undefined ? '' : ` URL was: ${url.slice(0, 200)}`}`),
    "Set `url` (or AUTH_URL) to the site's URL, or `trustHost: true` (or AUTH_TRUST_HOST=true) behind a proxy " +
      'that sets the Host header',
  )
}

/**
 * Logs a configuration problem that fails every request, once per config object and error type: the first time
 * it is met (at start-up, or on the first request), not again on each request after it.
 */
export function reportConfigurationProblem(config: unknown, error: unknown): void {
  const asError = error instanceof Error ? error : new AuthError(String(error))
  const logger = createLogger(typeof config === 'object' && config !== null ? config : {})
  if (typeof config !== 'object' || config === null) {
    logger.error(asError)
    return
  }
  const kind = asError instanceof AuthError ? asError.type : asError.name
  let seen = reported.get(config)
  if (!seen) {
    seen = new Set()
    reported.set(config, seen)
  }
  if (seen.has(kind)) return
  seen.add(kind)
  logger.error(asError)
}

/** OAuth providers resolved as a sign-in would resolve them, so a provider that cannot work is named now. */
function providerProblems(resolved: ResolvedConfig): Error[] {
  const problems: Error[] = []
  const base = `${resolved.origin ?? 'http://localhost'}${resolved.basePath}`
  for (const provider of resolved.providers) {
    if (provider.kind === 'credentials') {
      const problem = failureStoreProblem(provider)
      if (problem) problems.push(problem)
    }
    if (provider.kind !== 'oauth') continue
    try {
      normalizeOAuthProvider(provider, {
        signinUrl: `${base}/signin/${provider.id}`,
        callbackUrl: `${base}/callback/${provider.id}`,
        redirectProxyUrl: resolved.redirectProxyUrl,
      })
    } catch (error) {
      problems.push(error instanceof Error ? error : new AuthError(String(error)))
    }
  }
  return problems
}

/**
 * Checks `config` once per config object and logs what is wrong, each problem once, with what to do (`requestUrl`:
 * the request that met the config first, when there is one, named as Auth.js names it). Never throws:
 * the requests still answer a broken configuration with the error page or the generic JSON.
 */
export function assertConfig(config: AuthConfig, requestUrl?: string): void {
  if (typeof config !== 'object' || config === null || asserted.has(config)) return
  asserted.add(config)
  let resolved: ResolvedConfig
  try {
    resolved = resolveConfig(config)
  } catch (error) {
    broken.set(config, error instanceof Error ? error : new AuthError(String(error)))
    reportConfigurationProblem(config, error)
    return
  }
  if (!resolved.trustHost) reportConfigurationProblem(config, untrustedHost(requestUrl))
  // A provider's own mistake fails only its sign-in, so it is logged here and again by each sign-in that meets it.
  for (const problem of providerProblems(resolved)) resolved.logger.error(problem)
}

/**
 * Why `config` fails every request (the error `assertConfig` logged for it), or undefined when it resolves. A
 * binding's session helper names it instead of a bare "the session endpoint did not answer".
 */
export function configurationFailure(config: AuthConfig): Error | undefined {
  assertConfig(config)
  return broken.get(config)
}
