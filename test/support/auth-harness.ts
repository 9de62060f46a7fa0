/** Drives `Auth()` the way a browser would: real `Request`s, a cookie jar, form posts with the CSRF token. */
import { Auth, setClientAddress } from '../../src/index.js'
import Credentials from '../../src/providers/credentials.js'
import { CredentialsSignin } from '../../src/errors.js'
import type { AuthConfig, LoggerInstance } from '../../src/types/index.js'
import { scalarText } from '../../src/security/scalar-text.js'

export const origin = 'http://localhost:3000'
export const secret = 'test-secret-with-at-least-32-characters!!'

/** A logger that records instead of printing, so tests can assert what the server log got. */
export function recordingLogger() {
  const errors: Error[] = []
  const warnings: string[] = []
  /** Each `refused:<check>` warning with the detail it was logged with. */
  const refusals: Array<{ code: string; detail: Record<string, unknown> }> = []
  const logger: LoggerInstance = {
    error: (e) => {
      errors.push(e)
    },
    warn: (c, detail) => {
      warnings.push(c)
      if (c.startsWith('refused:')) refusals.push({ code: c, detail: { ...detail } })
    },
    debug: () => {},
  }
  return { logger, errors, warnings, refusals }
}

/** The users the test credentials provider knows. */
export const users: Record<string, { password: string; user: { id: string; name: string; email: string } }> = {
  ada: { password: 'lovelace', user: { id: 'u-ada', name: 'Ada Lovelace', email: 'ada@example.com' } },
  alan: { password: 'turing', user: { id: 'u-alan', name: 'Alan Turing', email: 'alan@example.com' } },
}

/** A credentials provider over `users`; `locked` throws CredentialsSignin with a code, `boom` throws a plain error. */
export function testCredentials() {
  return Credentials({
    credentials: { username: { label: 'Username' }, password: { label: 'Password', type: 'password' } },
    authorize: async (credentials) => {
      const name = scalarText(credentials.username)
      if (name === 'boom') throw new Error('database is down')
      if (name === 'locked') {
        const error = new CredentialsSignin()
        error.code = 'account_locked'
        throw error
      }
      const entry = users[name]
      return entry && entry.password === credentials.password ? entry.user : null
    },
  })
}

/** A config for tests: one credentials provider, a recording logger, trusted host. */
export function testConfig(
  overrides: Partial<AuthConfig> = {},
): AuthConfig & { recorded: ReturnType<typeof recordingLogger> } {
  const recorded = recordingLogger()
  return { providers: [testCredentials()], secret, trustHost: true, logger: recorded.logger, ...overrides, recorded }
}

/** A minimal cookie jar: what the server set, sent back on the next request. */
export class CookieJar {
  readonly cookies = new Map<string, string>()

  /** Stores the Set-Cookie headers of a response (a Max-Age=0 or past Expires deletes). */
  take(response: Response): this {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';')
      const eq = pair.indexOf('=')
      const name = pair.slice(0, eq).trim()
      const value = pair.slice(eq + 1).trim()
      const expired =
        attrs.some((a) => /^\s*max-age=0\s*$/i.test(a)) ||
        attrs.some((a) => /^\s*expires=/i.test(a) && Date.parse(a.split('=')[1]) < Date.now())
      if (expired) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    return this
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  }
}

export interface SendOptions {
  method?: string
  jar?: CookieJar
  form?: Record<string, string>
  json?: unknown
  body?: string
  headers?: Record<string, string>
  base?: string
  /** The socket's peer address, as a host passes it with `setClientAddress` (an in-process request has none). */
  peer?: string
}

/** Sends a request to `Auth()` and stores the cookies it set in the jar. */
export async function send(config: AuthConfig, path: string, options: SendOptions = {}): Promise<Response> {
  const headers = new Headers(options.headers)
  if (options.jar && options.jar.cookies.size > 0 && !headers.has('cookie')) headers.set('cookie', options.jar.header())
  let body: string | undefined = options.body
  if (options.form) {
    body = new URLSearchParams(options.form).toString()
    headers.set('content-type', 'application/x-www-form-urlencoded')
  } else if (options.json !== undefined) {
    body = JSON.stringify(options.json)
    headers.set('content-type', 'application/json')
  }
  const method = options.method ?? (body !== undefined ? 'POST' : 'GET')
  const request = new Request(`${options.base ?? origin}${path}`, { method, headers, body })
  setClientAddress(request, options.peer)
  const response = await Auth(request, config)
  options.jar?.take(response)
  return response
}

/** GET /auth/csrf and return the token (the jar keeps the cookie). */
export async function csrfToken(config: AuthConfig, jar: CookieJar, base?: string): Promise<string> {
  const response = await send(config, `${config.basePath ?? '/auth'}/csrf`, { jar, base })
  return ((await response.json()) as { csrfToken: string }).csrfToken
}

/** Signs in with the test credentials provider; returns the response of the callback. */
export async function signIn(
  config: AuthConfig,
  jar: CookieJar,
  username = 'ada',
  password = users[username]?.password ?? 'x',
  extra: Record<string, string> = {},
): Promise<Response> {
  const token = await csrfToken(config, jar)
  return send(config, `${config.basePath ?? '/auth'}/callback/credentials`, {
    jar,
    form: { username, password, csrfToken: token, ...extra },
  })
}

/** GET /auth/session as JSON. */
export async function session(config: AuthConfig, jar: CookieJar): Promise<unknown> {
  const response = await send(config, `${config.basePath ?? '/auth'}/session`, { jar })
  return response.json()
}
