/**
 * The binding's configuration: Auth's, without `raw`, plus `prefix`, the path the catch-all route is mounted on.
 * `prefix` and `basePath` name one thing (Auth.js's SolidStart binding lets them disagree, so its callback URLs can
 * point where no route answers): set either and both agree; set both differently and `SolidAuth()` refuses.
 */
import { setEnvDefaults } from '../../index.js'
import { assertConfig } from '../../core/config-assertion.js'
import { InvalidConfig } from '../../errors.js'
import { hasConfigShape } from '../shared/config-shape.js'
import type { AuthConfig } from '../../types/index.js'

export interface SolidAuthConfig extends Omit<AuthConfig, 'raw'> {
  /**
   * Where the catch-all route `[...solidauth].ts` lives, default `/api/auth`. The same as `basePath`; give one of them.
   */
  prefix?: string
}

/** The default mount path, the one SolidStart apps use for their auth routes. */
export const defaultPrefix = '/api/auth'

const prepared = new WeakSet<object>()

function normalised(path: string, option: string): string {
  if (!path.startsWith('/'))
    throw new InvalidConfig(`SolidAuth: \`${option}\` must be a path starting with "/" (got ${JSON.stringify(path)})`)
  return path.replace(/\/+$/, '')
}

function isConfig(value: unknown): value is SolidAuthConfig {
  return hasConfigShape(value)
}

/**
 * Checks `config`, makes `prefix` and `basePath` agree and applies the environment defaults (AUTH_SECRET, AUTH_URL,
 * AUTH_TRUST_HOST, provider ids and secrets), once per configuration object. Returns the mount path.
 * @throws InvalidConfig when `config` is not an object (or its `providers` not an array), has `raw`, or `prefix` and `basePath` disagree.
 */
export function prepareSolidConfig(config: unknown, env: Record<string, string | undefined> = processEnv()): string {
  if (!isConfig(config))
    throw new InvalidConfig('SolidAuth takes a configuration object (its `providers`, when given, an array)')
  if (prepared.has(config)) return config.basePath ?? defaultPrefix
  if ('raw' in config) throw new InvalidConfig('SolidAuth needs real responses: remove `raw` from the configuration')
  const prefix = config.prefix === undefined ? undefined : normalised(config.prefix, 'prefix')
  const basePath = config.basePath === undefined ? undefined : normalised(config.basePath, 'basePath')
  if (prefix !== undefined && basePath !== undefined && prefix !== basePath) {
    throw new InvalidConfig(
      `SolidAuth: \`prefix\` (${prefix}) and \`basePath\` (${basePath}) name the same path and must agree; set one of them`,
    )
  }
  const path = prefix ?? basePath ?? defaultPrefix
  config.prefix = path
  config.basePath = path
  // The binding chose the base path itself: AUTH_URL's path does not override it (a differing one is warned about).
  setEnvDefaults(env, config, true)
  prepared.add(config)
  // What is wrong with the configuration is logged now, when the route module is loaded, not at the first request.
  assertConfig(config)
  return path
}

function processEnv(): Record<string, string | undefined> {
  return typeof process === 'undefined' ? {} : process.env
}
