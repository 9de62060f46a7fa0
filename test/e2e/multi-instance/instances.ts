/**
 * Starts `auth-server.ts` as child processes and talks to them the way a load balancer in front of them would: every
 * request carries the site's Host header, whichever instance's port it is sent to. Also the browser steps of an
 * OIDC sign-in over real HTTP (CSRF token, sign-in POST, callback), shared by the multi-instance and fault suites.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { CookieJar } from '../../support/auth-harness.js'
import { http, type HttpOptions, type HttpResult } from '../../frameworks/express-http.js'
import type { TransitionRecord } from '../../../src/types/index.js'

/** The one origin every instance serves, as the browser sees it (the load balancer keeps the Host header). */
export const siteHost = 'app.test'
export const siteOrigin = `http://${siteHost}`
/** The redirect URI registered at the OpenID Provider: one, because the site is one site. */
export const callbackUrl = `${siteOrigin}/auth/callback/idp`
export const clientId = 'multi-instance-app'
export const clientSecret = 'multi-instance-client-secret'
export const flowCookie = 'authchart.flow'

const serverScript = fileURLToPath(new URL('./auth-server.ts', import.meta.url))
/** tsx compiles the script and the library on start; a cold start on a busy two-core machine takes a few seconds. */
const startTimeoutMs = 20_000
const stopTimeoutMs = 5_000

/** What `auth-server.ts` reads from its environment (see that file). */
export interface InstanceOptions {
  name: string
  opIssuer: string
  secret: string
  store: 'cookie' | 'redis'
  redisUrl?: string
  redisPrefix?: string
  redisTimeoutMs?: number
  /** `host:port` of every node of a Redis Cluster, used instead of `redisUrl`. */
  redisClusterNodes?: string[]
  /** `redis`: users, accounts and database sessions in the same Redis, through `RedisAdapter`. */
  adapter?: 'redis'
  /** Keep the provider's tokens with the session and serve `GET /access-token` (see auth-server.ts). */
  tokenRefresh?: boolean
  /** Another site script to run instead of auth-server.ts (the soak's site), with its own variables and Node flags. */
  script?: { path: string; env: Record<string, string>; nodeArgs?: string[] }
}

export interface RunningInstance {
  readonly name: string
  readonly port: number
  readonly pid: number
  /** Whether the process is still running. */
  isRunning(): boolean
  /** Everything the process wrote to stderr so far (its auth log), for failure messages. */
  log(): string
  /** One request to this instance, with the site's Host header. */
  request(path: string, options?: HttpOptions): Promise<HttpResult>
  /** SIGTERM, then SIGKILL if it has not exited in time; resolves once it has exited. Safe to call twice. */
  stop(): Promise<void>
}

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null
}

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (hasExited(child)) return Promise.resolve(true)
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.off('exit', onExit)
      resolve(false)
    }, timeoutMs)
    const onExit = () => {
      clearTimeout(timer)
      resolve(true)
    }
    child.once('exit', onExit)
  })
}

/** Spawns one instance and resolves once it listens. */
export async function startInstance(options: InstanceOptions): Promise<RunningInstance> {
  // The parent's AUTH_* variables must not leak into the instance: its whole configuration is what the test says.
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('AUTH_')) env[key] = value
  Object.assign(env, {
    PORT: '0',
    INSTANCE: options.name,
    AUTH_SECRET: options.secret,
    FLOW_STORE: options.store,
    OP_ISSUER: options.opIssuer,
    OP_CLIENT_ID: clientId,
    OP_CLIENT_SECRET: clientSecret,
    REDIS_URL: options.redisUrl ?? '',
    REDIS_PREFIX: options.redisPrefix ?? '',
  })
  if (options.redisClusterNodes) env.REDIS_CLUSTER_NODES = options.redisClusterNodes.join(',')
  else delete env.REDIS_CLUSTER_NODES
  if (options.adapter) env.ADAPTER = options.adapter
  else delete env.ADAPTER
  if (options.tokenRefresh) env.TOKEN_REFRESH = '1'
  else delete env.TOKEN_REFRESH
  if (options.redisTimeoutMs === undefined) delete env.REDIS_TIMEOUT_MS
  else env.REDIS_TIMEOUT_MS = String(options.redisTimeoutMs)
  Object.assign(env, options.script?.env)

  const args = [...(options.script?.nodeArgs ?? []), '--import', 'tsx', options.script?.path ?? serverScript]
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] })
  // A safety net for a test run that ends without its afterAll (a worker torn down): never leave a server behind.
  const killOnExit = () => {
    child.kill('SIGKILL')
  }
  process.once('exit', killOnExit)
  child.once('exit', () => process.off('exit', killOnExit))
  let stderr = ''
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk
  })

  const port = await new Promise<number>((resolve, reject) => {
    let stdout = ''
    const settle = () => {
      clearTimeout(timer)
      child.stdout?.off('data', onData)
      child.off('error', onError)
      child.off('exit', onExit)
    }
    const fail = (reason: string) => {
      settle()
      child.kill('SIGKILL')
      reject(new Error(`instance ${options.name} did not start: ${reason}\n${stderr.slice(-2000)}`))
    }
    const onData = (chunk: string) => {
      stdout += chunk
      const ready = /^ready (\d+)$/m.exec(stdout)
      if (ready) {
        settle()
        resolve(Number(ready[1]))
      }
    }
    const onError = (error: Error) => fail(error.message)
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => fail(`exited with ${code ?? signal}`)
    const timer = setTimeout(() => fail(`no ready line within ${startTimeoutMs} ms`), startTimeoutMs)
    child.stdout?.setEncoding('utf8').on('data', onData)
    child.once('error', onError)
    child.once('exit', onExit)
  })

  const pid = child.pid ?? -1
  return {
    name: options.name,
    port,
    pid,
    isRunning: () => !hasExited(child),
    log: () => stderr,
    request: (path, requestOptions = {}) =>
      http(port, path, { ...requestOptions, headers: { host: siteHost, ...requestOptions.headers } }),
    async stop() {
      if (hasExited(child)) return
      child.kill('SIGTERM')
      if (await waitForExit(child, stopTimeoutMs)) return
      child.kill('SIGKILL')
      await waitForExit(child, stopTimeoutMs)
    },
  }
}

/** Stops every instance that was started, whatever happened to the others. */
export async function stopAll(instances: Iterable<RunningInstance | undefined>): Promise<void> {
  await Promise.allSettled([...instances].map(async (instance) => instance?.stop()))
}

/** GET /auth/csrf on `instance`: the token, with its cookie kept in the jar. */
export async function csrfTokenFrom(instance: RunningInstance, jar: CookieJar): Promise<string> {
  const response = await instance.request('/auth/csrf', { jar })
  if (response.status !== 200) throw new Error(`GET /auth/csrf answered ${response.status}`)
  return (JSON.parse(response.body) as { csrfToken: string }).csrfToken
}

/** POST /auth/signin/idp on `instance` with a CSRF token already in hand. */
export function postSignIn(
  instance: RunningInstance,
  jar: CookieJar,
  csrfToken: string,
  headers: Record<string, string> = {},
): Promise<HttpResult> {
  return instance.request('/auth/signin/idp', { jar, form: { csrfToken, callbackUrl: '/after' }, headers })
}

/** Starts an OIDC sign-in on `instance` and returns the provider's authorization URL the browser is sent to. */
export async function beginSignIn(instance: RunningInstance, jar: CookieJar): Promise<string> {
  const response = await postSignIn(instance, jar, await csrfTokenFrom(instance, jar))
  const location = response.headers.location
  if (response.status !== 302 || !location)
    throw new Error(`sign-in on ${instance.name} answered ${response.status}: ${response.body.slice(0, 200)}`)
  return location
}

/** The `error` query parameter of a redirect, or null when the answer is not a redirect or carries none. */
export function redirectError(result: HttpResult): string | null {
  const location = result.headers.location
  return result.status === 302 && location ? new URL(location, siteOrigin).searchParams.get('error') : null
}

/** Whether the answer sets a non-empty session cookie (or a chunk of one: `authjs.session-token.0`, ...). */
export function setsSession(result: HttpResult): boolean {
  return result.cookies.some((line) => /^authjs\.session-token(?:\.\d+)?=[^;]/.test(line))
}

/** Whether the answer sets a non-empty flow cookie. */
export function setsFlowCookie(result: HttpResult): boolean {
  return result.cookies.some((line) => line.startsWith(`${flowCookie}=`) && !line.startsWith(`${flowCookie}=;`))
}

/** GET /auth/session on `instance` with the jar's cookies: the e-mail of the signed-in user, or null. */
export async function sessionEmail(instance: RunningInstance, jar: CookieJar): Promise<string | null> {
  const response = await instance.request('/auth/session', { jar })
  if (response.status !== 200) throw new Error(`GET /auth/session answered ${response.status}`)
  const body = JSON.parse(response.body) as { user?: { email?: string } } | null
  return body?.user?.email ?? null
}

export { CookieJar }

/** The audit trail `instance` recorded for one flow (`GET /transitions`, filtered by flow id). */
export async function transitionsOf(instance: RunningInstance, flowId: string): Promise<TransitionRecord[]> {
  const response = await instance.request('/transitions')
  if (response.status !== 200) throw new Error(`GET /transitions answered ${response.status}`)
  return (JSON.parse(response.body) as TransitionRecord[]).filter((record) => record.flowId === flowId)
}
