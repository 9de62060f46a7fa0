/**
 * The binding's configuration: Auth's, without `raw`, with next-auth v5's `authorized` callback (the Middleware's
 * decision), given as an object or as a function of the request (lazy initialisation, to read per-request
 * environment). Environment defaults are next-auth's: AUTH_* as in every binding, NEXTAUTH_URL and NEXTAUTH_SECRET
 * as older names, and the base path `/api/auth` (where `app/api/auth/[...nextauth]/route.ts` serves), unless the
 * configuration or AUTH_URL's path names another.
 */
import type { NextRequest, NextResponse } from 'next/server'
import { assertConfig } from '../../core/config-assertion.js'
import { processEnv, setEnvDefaults } from '../../core/env.js'
import { InvalidConfig } from '../../errors.js'
import type { AuthConfig, Awaitable, Session } from '../../types/index.js'
import { hasConfigShape } from '../shared/config-shape.js'

/** What the `authorized` callback receives: the request the Middleware runs for and its session. */
export interface AuthorizedParams {
  request: NextRequest
  auth: Session | null
}

/** Auth's configuration for Next.js: without `raw`, with the Middleware's `authorized` callback. */
export interface NextAuthConfig extends Omit<AuthConfig, 'raw'> {
  callbacks?: AuthConfig['callbacks'] & {
    /**
     * Decides, in the Middleware, whether the request may go on: `true` lets it, `false` redirects to the sign-in
     * page (`pages.signIn`, else `${basePath}/signin`) with `callbackUrl`, a Response is the answer as it stands.
     */
    authorized?: (params: AuthorizedParams) => Awaitable<boolean | NextResponse | Response | undefined>
  }
}

/** A configuration the binding prepared: environment defaults applied, the base path decided. */
export type PreparedNextConfig = NextAuthConfig & { basePath: string }

function isPrepared(config: NextAuthConfig): config is PreparedNextConfig {
  return prepared.has(config) && typeof config.basePath === 'string'
}

/** The configuration or the function of the request (undefined outside a request, at a Server Component) giving it. */
export type NextAuthConfigInput = NextAuthConfig | ((request: NextRequest | undefined) => Awaitable<NextAuthConfig>)

/** The default base path: next-auth's, where `app/api/auth/[...nextauth]/route.ts` serves. */
export const defaultBasePath = '/api/auth'

const prepared = new WeakSet<object>()

/** Refuses what cannot be a configuration, at `NextAuth()` time when it is an object. */
export function assertConfigInput(value: unknown): asserts value is NextAuthConfigInput {
  if (typeof value === 'function') return
  checkConfig(value)
}

function checkConfig(value: unknown): asserts value is NextAuthConfig {
  if (!hasConfigShape(value))
    throw new InvalidConfig(
      'NextAuth takes a configuration object (its `providers`, when given, an array), or a function of the request that returns one',
    )
  if ('raw' in value) throw new InvalidConfig('NextAuth needs real responses: remove `raw` from the configuration')
}

/** next-auth's names first, its older NEXTAUTH_* names where the new ones are unset. */
export function nextAuthEnv(env: Record<string, string | undefined>): Record<string, string | undefined> {
  return {
    ...env,
    AUTH_URL: env.AUTH_URL || env.NEXTAUTH_URL || undefined,
    AUTH_SECRET: env.AUTH_SECRET || env.NEXTAUTH_SECRET || undefined,
  }
}

function urlPath(url: string | undefined): string | undefined {
  if (!url) return undefined
  try {
    const path = new URL(url).pathname.replace(/\/+$/, '')
    return path === '' ? undefined : path
  } catch {
    return undefined
  }
}

/**
 * Applies the environment defaults to `config` once per object (the base path `/api/auth` unless the config or
 * AUTH_URL's path names one) and checks it: what is wrong is logged when the configuration is first used.
 */
export function prepareNextConfig(
  config: unknown,
  env: Record<string, string | undefined> = processEnv(),
): PreparedNextConfig {
  checkConfig(config)
  if (isPrepared(config)) return config
  const vars = nextAuthEnv(env)
  if (config.basePath === undefined && urlPath(vars.AUTH_URL) === undefined) config.basePath = defaultBasePath
  setEnvDefaults(vars, config, true)
  config.basePath = (config.basePath ?? defaultBasePath).replace(/\/+$/, '')
  prepared.add(config)
  assertConfig(config)
  if (!isPrepared(config)) throw new InvalidConfig('NextAuth: the configuration could not be prepared')
  return config
}

/** The resolver of `input`: the object itself, or what the function gives for the request, prepared. */
export function configResolver(input: NextAuthConfigInput): (request?: NextRequest) => Promise<PreparedNextConfig> {
  if (typeof input !== 'function') {
    return () => Promise.resolve(prepareNextConfig(input))
  }
  return async (request) => {
    const config: unknown = await input(request)
    if (!hasConfigShape(config))
      throw new InvalidConfig('the NextAuth configuration function returned no configuration object')
    return prepareNextConfig(config)
  }
}
