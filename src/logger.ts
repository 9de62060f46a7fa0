/**
 * The logger: `error(err)`, `warn(code)`, and `debug` only when the config says `debug: true`. The built-in one
 * writes one line per call, `[authchart][<level>]...`, in the format docs/logging.md documents.
 */
import { AuthError, CredentialsSignin, UnknownAction } from './errors.js'
import type { LoggerInstance } from './types/logger.js'
import { safeRefusalDetail, type RefusalCheck, type RefusalDetail } from './types/refusals.js'
import { warningSentence } from './warning-sentences.js'

// The logger's types live with the shared types (src/types/logger.ts); re-exported here for existing importers.
export type { LoggerInstance, WarningCode } from './types/logger.js'

const noop = () => {}

/**
 * What to do about an error, kept beside it rather than in it: a configuration error carries exactly the message
 * Auth.js gives it (an app's `logger.error` and its tests compare the error with Auth.js's), and the built-in
 * logger prints the fix on a line of its own. A WeakMap, so the error object itself is left as Auth.js shapes it.
 */
const hints = new WeakMap<Error, string>()

/** Attaches `hint` (what the operator should do) to `error` without changing the error; returns `error`. */
export function withHint<E extends Error>(error: E, hint: string): E {
  hints.set(error, hint)
  return error
}

/**
 * Errors Auth.js passes to `logger.error` for a request Authchart refuses and has already logged as a
 * `refused:<check>` warn line: an app's own `logger.error` receives them as from Auth.js, the built-in logger writes
 * no second line (a forged request is an attack probe, not a server fault).
 */
const refusalErrors = new WeakSet<Error>()

/** Marks `error` as one already logged as a refusal (see `refusalErrors`); returns `error`. */
export function asLoggedRefusal<E extends Error>(error: E): E {
  refusalErrors.add(error)
  return error
}

/** The hint attached to `error` with `withHint`, if any. */
export function hintOf(error: Error): string | undefined {
  return hints.get(error)
}

/**
 * Errors caused by what a client sent rather than by the site: an unreadable session cookie, a body that is not
 * JSON, a provider id in the URL that is not configured. An app's own `logger.error` receives them as Auth.js passes
 * them; the built-in logger prints them as a `client-input` warn line without a stack, a bounded number per minute,
 * so a scanner's junk cannot fill the log with error lines and stacks.
 */
const clientInputErrors = new WeakSet<Error>()

/** Marks `error` as caused by client input (see `clientInputErrors`); returns it unchanged. */
export function fromClientInput<E extends Error>(error: E): E {
  clientInputErrors.add(error)
  return error
}

/**
 * Logs an error caused by client input (see `fromClientInput`), built only when someone will see it: an app's own
 * `logger.error` always gets it, the built-in logger only while its window has room. A junk cookie sent in a loop then
 * costs no error object (an `Error` records its stack when built, a fifth of a refused session check's time).
 */
export function logClientInput(logger: LoggerInstance, build: () => Error): void {
  if (builtInErrorLoggers.has(logger) && clientInputWindowFull(Date.now())) {
    clientInputLog.suppressed++
    return
  }
  logger.error(fromClientInput(build()))
}

/** Loggers whose `error` is the built-in one (the app gave no `logger.error`). */
const builtInErrorLoggers = new WeakSet<LoggerInstance>()

/** At most this many `client-input` lines per window; the rest are counted and reported once. */
const clientInputLinesPerWindow = 10
const clientInputWindowMs = 60_000
const clientInputLog = { windowStart: 0, printed: 0, suppressed: 0 }

/** Whether the current window has printed its share of `client-input` lines (a new window is never full). */
function clientInputWindowFull(now: number): boolean {
  return now - clientInputLog.windowStart < clientInputWindowMs && clientInputLog.printed >= clientInputLinesPerWindow
}

function printClientInput(error: Error): void {
  const now = Date.now()
  if (now - clientInputLog.windowStart >= clientInputWindowMs) {
    if (clientInputLog.suppressed > 0)
      console.warn(
        `[authchart][warn][client-input] ${warningSentence('client-input')} ${formatDetail({ suppressed: clientInputLog.suppressed })}`,
      )
    clientInputLog.windowStart = now
    clientInputLog.printed = 0
    clientInputLog.suppressed = 0
  }
  if (clientInputLog.printed >= clientInputLinesPerWindow) {
    clientInputLog.suppressed++
    return
  }
  clientInputLog.printed++
  const type = error instanceof AuthError ? error.type : error.name
  console.warn(
    `[authchart][warn][client-input] ${warningSentence('client-input')} ${formatDetail({ type, reason: error.message.slice(0, 200) })}`,
  )
}

/** `key=value` pairs, values quoted when they hold spaces, so a log line stays one greppable line. */
function formatDetail(detail: RefusalDetail): string {
  return Object.entries(detail)
    .map(
      ([key, value]) =>
        `${key}=${typeof value === 'string' && /[\s"=]/.test(value) ? JSON.stringify(value) : String(value)}`,
    )
    .join(' ')
}

/**
 * Debug metadata on the same line as its message: an object's fields as `key=value` (undefined ones left out,
 * nested values as JSON), anything else as JSON.
 */
function formatMetadata(metadata: unknown): string {
  if (metadata === undefined) return ''
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) return JSON.stringify(metadata)
  const fields: RefusalDetail = {}
  for (const [key, value] of Object.entries(metadata)) {
    if (value === undefined) continue
    fields[key] =
      typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
        ? value
        : JSON.stringify(value)
  }
  return formatDetail(fields)
}

const consoleLogger: LoggerInstance = {
  error(error) {
    // A refused credentials sign-in is an everyday outcome, already one `credentials-signin` warn line: on the
    // console it gets no error line and no stack. An app's own `logger.error` still receives the error.
    if (error instanceof CredentialsSignin) return
    // An unknown path under the base path is a stray request (a scanner, a typo), already one `unknown-action` warn
    // line (logUnknownAction): no error line and no stack. An app's own `logger.error` still receives it.
    if (error instanceof UnknownAction) return
    if (refusalErrors.has(error)) return
    if (clientInputErrors.has(error)) return printClientInput(error)
    const name = error instanceof AuthError ? error.type : error.name
    console.error(`[authchart][error] ${name}: ${error.message}`)
    const hint = hints.get(error)
    if (hint) console.error(`[authchart][hint] ${hint}`)
    const cause = error.cause as { err?: unknown } | undefined
    if (cause && typeof cause === 'object' && cause.err instanceof Error) {
      const { err, ...rest } = cause
      console.error('[authchart][cause]:', err.stack ?? err.message)
      if (Object.keys(rest).length) console.error('[authchart][details]:', JSON.stringify(rest, null, 2))
    } else if (error.stack) {
      console.error(error.stack.replace(/.*/, '').substring(1))
    }
  },
  warn(code, detail) {
    // The code for grepping and alerting, then what it means, so no warning is a bare code.
    const line = `[authchart][warn][${code}] ${warningSentence(code)}`
    console.warn(detail ? `${line} ${formatDetail(detail)}` : line)
  },
  debug(message, metadata) {
    const detail = formatMetadata(metadata)
    console.log(detail ? `[authchart][debug] ${message} ${detail}` : `[authchart][debug] ${message}`)
  },
}

/**
 * Builds the logger for a config: the app's levels where it gave them, the console otherwise. A logger method that
 * throws is never allowed to break a request.
 */
export function createLogger(config: { logger?: Partial<LoggerInstance>; debug?: boolean }): LoggerInstance {
  const custom = config.logger ?? {}
  const pick = <K extends keyof LoggerInstance>(key: K): LoggerInstance[K] => {
    const fn = (custom[key] ?? consoleLogger[key]) as (...args: unknown[]) => void
    return (...args: unknown[]) => {
      try {
        fn(...args)
      } catch {
        /* a broken logger must not become a broken request */
      }
    }
  }
  const logger: LoggerInstance = {
    error: pick('error'),
    warn: pick('warn'),
    // The spec: a custom logger's `debug` is used as given; the `debug` flag only governs the built-in one.
    debug: custom.debug || config.debug ? pick('debug') : noop,
  }
  if (!custom.error) builtInErrorLoggers.add(logger)
  return logger
}

/** Whether `logger` writes debug lines: a request need not build the details of a line nobody will see. */
export function isDebugEnabled(logger: LoggerInstance): boolean {
  return logger.debug !== noop
}

/** Logs one refusal: `refused:<check>` at warn, with details cut to a safe length. */
export function logRefusal(logger: LoggerInstance, check: RefusalCheck, detail: RefusalDetail = {}): void {
  logger.warn(`refused:${check}`, safeRefusalDetail(detail))
}

/**
 * Logs a request under the base path that names no action: `unknown-action` at warn (one line), and Auth.js's
 * `UnknownAction` to `logger.error`, which the built-in logger leaves unprinted.
 */
export function logUnknownAction(logger: LoggerInstance, error: UnknownAction, detail: RefusalDetail = {}): void {
  logger.warn('unknown-action', safeRefusalDetail({ ...detail, reason: error.message }))
  logger.error(error)
}
