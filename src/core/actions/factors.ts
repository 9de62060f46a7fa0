/**
 * GET /factors, the built-in second-factor page, and POST /factors, its forms (`intent`): `start` a TOTP enrolment,
 * `confirm` it with the first code, `regenerate` the recovery codes, `remove` a factor. Each POST needs the CSRF
 * token and a session; the request's own session decides whose factors are read and changed, so no form can reach
 * another user's. A client that sends `Accept: application/json` (an app with its own UI) gets the same actions as
 * JSON (docs/second-factors.md, "Enrolment"). Served only with an adapter that stores factors.
 *
 * A `callbackUrl` (the query's, or a form's: the sign-in held for enrolment sends the browser here with the one it
 * started with) rides along in the page's own URL, and the confirmed enrolment goes on to it through the app's
 * `redirect` callback, as a sign-in does.
 */
import { UnknownAction } from '../../errors.js'
import { recentAuthentication, defaultRecentAuthenticationSeconds } from '../../factors/recent-authentication.js'
import { logRefusal } from '../../logger.js'
import { renderFactorsPage, type FactorsView } from '../../pages/factors-page.js'
import type { ResponseInternal } from '../../types/index.js'
import type { RefusalCheck } from '../../types/refusals.js'
import type { RequestContext } from '../context.js'
import { actionUrl, pageUrl } from '../context.js'
import {
  confirmTotpEnrolment,
  isFactorRefusal,
  listFactorsOf,
  regenerateRecoveryCodes,
  removeFactorOf,
  startTotpEnrolment,
  type FactorManagementEnv,
} from '../factor-management.js'
import { openPendingEnrolment } from '../../factors/pending-enrolment.js'
import { otpauthUri, enrolmentQrSvg } from '../../factors/enrolment.js'
import { pageHeaders, pageLocaleOf } from '../page-locale.js'
import { signedInSession, type SignedInSession } from '../user-resolution.js'
import { completeEnrolmentSignIn, enrolmentPendingOf } from '../enrolment-sign-in.js'
import type { PendingSignIn } from '../../factors/enrolment-pending-sign-in.js'
import { ensureCsrfToken } from './read-only.js'
import { auditAccountChange } from '../audit-trail.js'
import { requestedCallbackUrl } from '../callback-url.js'
import { effectEnv } from '../effect-outcome.js'
import { runRedirectCallback } from '../../effects/shared/redirect-callback.js'

const jsonHeaders = { 'content-type': 'application/json', 'cache-control': 'no-store' }

/** The adapter's factor methods, or UnknownAction: without them there is nothing to manage. */
function managementEnv(ctx: RequestContext): FactorManagementEnv {
  const source = ctx.config.source.adapter
  const adapter = ctx.config.adapter
  const stores =
    typeof source?.createFactor === 'function' &&
    typeof source.listFactorsByUserId === 'function' &&
    typeof source.deleteFactor === 'function'
  if (!stores || !adapter) throw new UnknownAction('factors needs an adapter that stores second factors')
  return {
    adapter,
    secrets: ctx.config.secrets,
    events: ctx.config.events,
    logger: ctx.config.logger,
    audit: (change) => auditAccountChange(ctx.config, { type: 'factor-change', ...change }),
  }
}

/** Whether the client asked for JSON (an app with its own UI) rather than the built-in page. */
function wantsJson(ctx: RequestContext): boolean {
  return /\bapplication\/json\b/i.test(ctx.req.header('accept') ?? '')
}

function json(ctx: RequestContext, status: number, body: Record<string, unknown>): ResponseInternal {
  return { status, body, headers: jsonHeaders, cookies: ctx.setCookies }
}

/** Each request's `callbackUrl`, read once: an unusable one is a refusal, logged once however often it is asked. */
const callbackUrls = new WeakMap<RequestContext, { url: string | undefined }>()

function callbackUrlOf(ctx: RequestContext): string | undefined {
  let read = callbackUrls.get(ctx)
  if (!read) callbackUrls.set(ctx, (read = { url: requestedCallbackUrl(ctx) }))
  return read.url
}

/**
 * This page's URL, carrying the request's `callbackUrl` (as asked: it is vetted only where it is followed), so every
 * form and link of the page keeps it until the enrolment is confirmed.
 */
function factorsUrl(ctx: RequestContext): string {
  const callbackUrl = callbackUrlOf(ctx)
  if (callbackUrl === undefined) return actionUrl(ctx, 'factors')
  return `${actionUrl(ctx, 'factors')}?${new URLSearchParams({ callbackUrl })}`
}

/**
 * Where a confirmed enrolment goes on to: the request's `callbackUrl` as the app's `redirect` callback decides it
 * (the base URL when the callback refuses it, which it logged); undefined when the request named none.
 */
async function onwardUrl(ctx: RequestContext): Promise<string | undefined> {
  const callbackUrl = callbackUrlOf(ctx)
  if (callbackUrl === undefined) return undefined
  const env = effectEnv(ctx)
  const decided = await runRedirectCallback(env, { url: callbackUrl })
  return decided.type === 'REDIRECT_RESOLVED' ? decided.url : env.baseUrl
}

function page(ctx: RequestContext, status: number, view: FactorsView): ResponseInternal {
  const locale = pageLocaleOf(ctx)
  const body = renderFactorsPage({
    actionUrl: factorsUrl(ctx),
    csrfToken: ctx.config.csrfEnabled ? ensureCsrfToken(ctx) : '',
    view,
    theme: ctx.config.theme,
    locale,
  })
  return { status, body, headers: pageHeaders(ctx, locale), cookies: ctx.setCookies }
}

function signInUrl(ctx: RequestContext): string {
  return pageUrl(ctx, 'signIn', { callbackUrl: actionUrl(ctx, 'factors') })
}

/** A visitor without a session: the sign-in page (a page request), or 401 (JSON). */
function notSignedIn(ctx: RequestContext): ResponseInternal {
  if (wantsJson(ctx)) return json(ctx, 401, { error: 'SessionRequired', message: 'Sign in first' })
  return { redirect: signInUrl(ctx), cookies: ctx.setCookies }
}

/** Whose factors a request manages: its session's user, or the user of a sign-in held until they enrol one. */
type FactorsSession = SignedInSession & { pending?: PendingSignIn }

/**
 * The session, else the sign-in the `secondFactor` policy holds for enrolment (docs/second-factors.md, "Policy"):
 * enrolment needs a signed-in user, and these endpoints are the only ones that accept a held sign-in as one.
 */
async function factorsSessionOf(ctx: RequestContext): Promise<FactorsSession | null> {
  const session = await signedInSession(ctx)
  if (session) return session
  const pending = enrolmentPendingOf(ctx)
  return pending ? { userId: pending.user.id, claims: { auth_time: pending.authTime }, pending } : null
}

/**
 * The factor is enrolled but the held sign-in could not become a session (the `jwt` callback refused or threw, the
 * issuer logged why): the user signs in again, and is challenged for the new factor.
 */
function sessionFailed(ctx: RequestContext): ResponseInternal {
  if (wantsJson(ctx)) return json(ctx, 401, { error: 'SessionRequired', message: 'Sign in again' })
  return { redirect: signInUrl(ctx), cookies: ctx.setCookies }
}

/** GET /factors: the user's factors, or the sign-in page for a visitor without a session. */
export async function factorsPageAction(ctx: RequestContext): Promise<ResponseInternal> {
  const env = managementEnv(ctx)
  const session = await factorsSessionOf(ctx)
  if (!session) return notSignedIn(ctx)
  const factors = await listFactorsOf(env, session.userId)
  if (wantsJson(ctx)) return json(ctx, 200, { factors })
  return page(ctx, 200, { kind: 'list', factors })
}

/** The JSON error and page status of each refusal. */
const refusalAnswers: Record<string, { status: number; error: string }> = {
  'factor-enrolment': { status: 400, error: 'EnrolmentExpired' },
  'factor-code': { status: 400, error: 'InvalidCode' },
  'factor-unknown': { status: 404, error: 'UnknownFactor' },
  'factor-reauth': { status: 403, error: 'ReauthenticationRequired' },
}

/** The user's name in their authenticator app: the e-mail address, else the name, else the id. */
async function accountNameOf(ctx: RequestContext, env: FactorManagementEnv, userId: string): Promise<string> {
  // A credentials-only app may keep its users elsewhere: the adapter then has no user to ask.
  const user = typeof ctx.config.source.adapter?.getUser === 'function' ? await env.adapter.getUser(userId) : null
  return user?.email ?? user?.name ?? userId
}

/** The enrolment page again for a wrong first code: the same secret, so the app the user set up still fits. */
async function enrolAgain(
  ctx: RequestContext,
  session: SignedInSession,
  enrolment: unknown,
): Promise<ResponseInternal> {
  const pending = openPendingEnrolment(ctx.config.secrets, session.userId, enrolment, ctx.now)
  if (!pending || typeof enrolment !== 'string') return page(ctx, 400, { kind: 'expired' })
  const accountName = await accountNameOf(ctx, managementEnv(ctx), session.userId)
  const uri = otpauthUri({ issuer: new URL(ctx.origin).host, accountName, secret: pending.secret })
  return page(ctx, 400, {
    kind: 'enrol',
    enrolment,
    secret: pending.secret,
    qrSvg: await enrolmentQrSvg(uri),
    problem: 'wrongCode',
  })
}

function refused(ctx: RequestContext, check: RefusalCheck, reason: string): ResponseInternal | null {
  logRefusal(ctx.config.logger, check, { reason })
  const answer = refusalAnswers[check] ?? { status: 400, error: 'InvalidRequest' }
  if (wantsJson(ctx)) return json(ctx, answer.status, { error: answer.error, message: reason })
  return null
}

/** POST /factors: one of the four intents for the signed-in user. */
export async function factorsAction(ctx: RequestContext): Promise<ResponseInternal> {
  const env = managementEnv(ctx)
  if (!ctx.csrfVerified) {
    logRefusal(ctx.config.logger, 'csrf', { reason: 'factor change without a valid CSRF token' })
    return json(ctx, 403, { error: 'MissingCSRF' })
  }
  const session = await factorsSessionOf(ctx)
  if (!session) {
    logRefusal(ctx.config.logger, 'session-token', { reason: 'factor change without a session' })
    return notSignedIn(ctx)
  }
  const body = ctx.req.body ?? {}
  const nowMs = ctx.now * 1000
  switch (body.intent) {
    case 'start': {
      const started = await startTotpEnrolment(
        env,
        {
          userId: session.userId,
          issuer: new URL(ctx.origin).host,
          accountName: await accountNameOf(ctx, env, session.userId),
        },
        ctx.now,
      )
      if (wantsJson(ctx)) return json(ctx, 200, { ...started })
      return page(ctx, 200, {
        kind: 'enrol',
        enrolment: started.enrolment,
        secret: started.secret,
        qrSvg: started.qrSvg,
      })
    }
    case 'confirm': {
      const confirmed = await confirmTotpEnrolment(
        env,
        session.userId,
        { enrolment: body.enrolment, code: body.code, label: body.label },
        nowMs,
      )
      if (isFactorRefusal(confirmed)) {
        const answer = refused(ctx, confirmed.refused, confirmed.reason)
        if (answer) return answer
        return confirmed.refused === 'factor-code'
          ? enrolAgain(ctx, session, body.enrolment)
          : page(ctx, 400, { kind: 'expired' })
      }
      // A held sign-in becomes the session it was held from: the code just checked proved the authenticator app.
      if (session.pending && !(await completeEnrolmentSignIn(ctx, session.pending, 'otp'))) return sessionFailed(ctx)
      const onward = await onwardUrl(ctx)
      if (wantsJson(ctx))
        return json(ctx, 200, {
          factor: confirmed.factor,
          recoveryCodes: confirmed.recoveryCodes,
          ...(onward === undefined ? {} : { url: onward }),
        })
      // Recovery codes are shown once, so they are not skipped for the callback URL: their page links on to it.
      if (confirmed.recoveryCodes)
        return page(ctx, 200, { kind: 'codes', codes: confirmed.recoveryCodes, enrolled: true, onward })
      return { redirect: onward ?? factorsUrl(ctx), cookies: ctx.setCookies }
    }
    case 'regenerate': {
      const codes = await regenerateRecoveryCodes(env, session.userId, nowMs)
      if (isFactorRefusal(codes)) {
        const answer = refused(ctx, codes.refused, codes.reason)
        return (
          answer ??
          page(ctx, 404, { kind: 'list', factors: await listFactorsOf(env, session.userId), notice: 'unknown' })
        )
      }
      if (wantsJson(ctx)) return json(ctx, 200, { recoveryCodes: codes })
      return page(ctx, 200, { kind: 'codes', codes, enrolled: false })
    }
    case 'remove': {
      const recent = recentAuthentication(session.claims, defaultRecentAuthenticationSeconds, ctx.now)
      const removed = await removeFactorOf(env, session.userId, body.factor, recent)
      if (isFactorRefusal(removed)) {
        const answer = refused(ctx, removed.refused, removed.reason)
        if (answer) return answer
        if (removed.refused === 'factor-reauth') return page(ctx, 403, { kind: 'reauth', signInUrl: signInUrl(ctx) })
        return page(ctx, 404, { kind: 'list', factors: await listFactorsOf(env, session.userId), notice: 'unknown' })
      }
      if (wantsJson(ctx)) return json(ctx, 200, { removed })
      return { redirect: factorsUrl(ctx), cookies: ctx.setCookies }
    }
    default:
      return json(ctx, 400, {
        error: 'InvalidRequest',
        message: 'intent must be one of start, confirm, regenerate, remove',
      })
  }
}
