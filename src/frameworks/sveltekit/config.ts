/**
 * The configuration of one request: the app's object, or what its lazy function returns for the event (used to
 * read platform environment per request), with environment defaults applied once per distinct object. Resolved once
 * per request and shared by `handle`, `locals.auth()` and the form actions.
 */
import type { RequestEvent } from '@sveltejs/kit'
import { setEnvDefaults } from '../../index.js'
import { InvalidConfig } from '../../errors.js'
import { hasConfigShape } from '../shared/config-shape.js'
import { createLogger } from '../../logger.js'
import type { AuthConfig } from '../../types/index.js'
import { environmentOf, type EnvSource } from './env.js'

/** The binding's configuration: Auth's, without `raw` (the binding needs real responses). */
export type SvelteKitAuthConfig = Omit<AuthConfig, 'raw'>

export type ConfigOrFactory =
  SvelteKitAuthConfig | ((event: RequestEvent) => SvelteKitAuthConfig | PromiseLike<SvelteKitAuthConfig>)

/** Options of the binding itself (not part of Auth's configuration). */
export interface SvelteKitAuthOptions {
  /**
   * The environment to read defaults from; pass `env` from `$env/dynamic/private` so values from `.env` files count
   * in `vite dev` too. Default: `process.env`. `event.platform.env`, when the platform has one, is laid over it.
   */
  env?: EnvSource
}

const prepared = new WeakSet<object>()

function isConfig(value: unknown): value is SvelteKitAuthConfig {
  return hasConfigShape(value)
}

/** Refuses what cannot be a configuration, at `SvelteKitAuth()` time when it is an object. */
export function assertConfigShape(value: unknown): asserts value is ConfigOrFactory {
  if (typeof value === 'function') return
  if (!isConfig(value))
    throw new InvalidConfig(
      'SvelteKitAuth takes a configuration object (its `providers`, when given, an array), or a function of the event that returns one',
    )
  if ('raw' in value) throw new InvalidConfig('SvelteKitAuth needs real responses: remove `raw` from the configuration')
}

/**
 * Whether the environment left `trustHost` to Auth.js's default, which trusts any Host unless NODE_ENV is
 * `production`, in a server that is not `vite dev` (which sets NODE_ENV to `development`): a built app started with
 * `node build` and no NODE_ENV. There every link and redirect follows whatever Host a request names.
 */
function trustsAnyHostByDefault(env: EnvSource, config: SvelteKitAuthConfig): boolean {
  return (
    config.trustHost === true &&
    !config.url &&
    env.AUTH_TRUST_HOST === undefined &&
    !env.AUTH_URL &&
    !env.VERCEL &&
    !env.CF_PAGES &&
    env.NODE_ENV !== 'production' &&
    env.NODE_ENV !== 'development'
  )
}

/** Builds the per-request resolver for `configOrFactory`. */
export function configResolver(
  configOrFactory: ConfigOrFactory,
  options: SvelteKitAuthOptions,
): (event: RequestEvent) => Promise<SvelteKitAuthConfig> {
  const perEvent = new WeakMap<RequestEvent, Promise<SvelteKitAuthConfig>>()
  let hostWarned = false
  async function resolve(event: RequestEvent): Promise<SvelteKitAuthConfig> {
    const config: unknown = typeof configOrFactory === 'function' ? await configOrFactory(event) : configOrFactory
    if (!isConfig(config))
      throw new InvalidConfig('the SvelteKitAuth configuration function returned no configuration object')
    if (!prepared.has(config)) {
      const env = environmentOf(options.env, event.platform)
      const trustHostChosen = config.trustHost !== undefined
      setEnvDefaults(env, config, true)
      prepared.add(config)
      // Said once per SvelteKitAuth, also when a lazy configuration makes a new object per request.
      if (!hostWarned && !trustHostChosen && trustsAnyHostByDefault(env, config)) {
        hostWarned = true
        createLogger(config).warn('sveltekit-trusts-any-host')
      }
    }
    return config
  }
  return (event) => {
    let pending = perEvent.get(event)
    if (!pending) {
      pending = resolve(event)
      perEvent.set(event, pending)
    }
    return pending
  }
}
