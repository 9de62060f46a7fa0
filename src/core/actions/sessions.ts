/**
 * GET /sessions, the built-in "your sessions" page, and POST /sessions, its forms: `revoke=<id>` signs one other
 * device out, `revoke=others` every other device. Each POST needs the CSRF token; the request's own session decides
 * whose sessions are shown and ended, so no form can reach another user's. Without `sessionManagement` in the config
 * the action is unknown.
 */
import { UnknownAction } from '../../errors.js'
import { logRefusal } from '../../logger.js'
import { renderSessionsPage } from '../../pages/sessions-page.js'
import type { ResponseInternal } from '../../types/index.js'
import type { RequestContext } from '../context.js'
import { actionUrl, pageUrl } from '../context.js'
import { pageHeaders, pageLocaleOf } from '../page-locale.js'
import { listSessionsOf, revokeOtherSessionsOf, revokeSessionOf } from '../session-management.js'
import { ensureCsrfToken } from './read-only.js'

function requireSessionManagement(ctx: RequestContext): void {
  if (!ctx.config.sessionManagement) throw new UnknownAction('sessions needs `sessionManagement` in the config')
}

function toSignIn(ctx: RequestContext): ResponseInternal {
  return { redirect: pageUrl(ctx, 'signIn', { callbackUrl: actionUrl(ctx, 'sessions') }), cookies: ctx.setCookies }
}

/** GET /sessions: the page, or the sign-in page for a visitor without a session. */
export async function sessionsPageAction(ctx: RequestContext): Promise<ResponseInternal> {
  requireSessionManagement(ctx)
  const sessions = await listSessionsOf(ctx.config, ctx.req.request)
  if (!sessions) return toSignIn(ctx)
  const locale = pageLocaleOf(ctx)
  const body = renderSessionsPage({
    actionUrl: actionUrl(ctx, 'sessions'),
    csrfToken: ctx.config.csrfEnabled ? ensureCsrfToken(ctx) : '',
    sessions,
    theme: ctx.config.theme,
    locale,
  })
  return { status: 200, body, headers: pageHeaders(ctx, locale), cookies: ctx.setCookies }
}

/** POST /sessions: ends one other session, or all others, of the signed-in user; then shows the page again. */
export async function revokeSessionsAction(ctx: RequestContext): Promise<ResponseInternal> {
  requireSessionManagement(ctx)
  if (!ctx.csrfVerified) {
    logRefusal(ctx.config.logger, 'csrf', { reason: 'session revocation without a valid CSRF token' })
    return {
      status: 403,
      body: { error: 'MissingCSRF' },
      headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
      cookies: ctx.setCookies,
    }
  }
  const revoke = ctx.req.body?.revoke
  if (typeof revoke !== 'string' || revoke === '' || revoke.length > 200) {
    return {
      status: 400,
      body: { error: 'InvalidRequest', message: 'Name a session to sign out' },
      headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
      cookies: ctx.setCookies,
    }
  }
  const ended =
    revoke === 'others'
      ? (await revokeOtherSessionsOf(ctx.config, ctx.req.request)) !== null
      : await revokeSessionOf(ctx.config, ctx.req.request, revoke)
  if (!ended) {
    // No session here, or no session of this user with that id: the same answer either way, nothing told.
    logRefusal(ctx.config.logger, 'session-token', { reason: 'no session of the signed-in user has that id' })
    return {
      status: 404,
      body: { error: 'InvalidRequest', message: 'No such session' },
      headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
      cookies: ctx.setCookies,
    }
  }
  return { redirect: actionUrl(ctx, 'sessions'), cookies: ctx.setCookies }
}
