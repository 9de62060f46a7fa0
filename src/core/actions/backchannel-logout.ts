/**
 * POST <basePath>/backchannel-logout/<provider>: an OpenID provider tells this site that a user's session there
 * ended (OpenID Connect Back-Channel Logout 1.0). The answer is 200 when the sessions it names have ended, 400 with
 * `{"error":"invalid_request"}` for a token that fails any check (each refusal logged once), never cached.
 */
import { AuthError } from '../../errors.js'
import { endSessionsForLogout, verifyLogoutToken } from '../../effects/session/backchannel-logout.js'
import { logRefusal } from '../../logger.js'
import type { ResponseInternal } from '../../types/index.js'
import type { OAuthConfigInternal } from '../../types/providers.js'
import type { RefusalCheck } from '../../types/refusals.js'
import type { RequestContext } from '../context.js'
import { effectEnv } from '../effect-outcome.js'
import { oauthProviderFor } from '../oauth-providers.js'

const noStore = { 'cache-control': 'no-store' }

function badRequest(): ResponseInternal {
  return {
    status: 400,
    body: { error: 'invalid_request' },
    headers: { ...noStore, 'content-type': 'application/json' },
  }
}

function refused(ctx: RequestContext, check: RefusalCheck, reason: string, provider?: string): ResponseInternal {
  logRefusal(ctx.config.logger, check, { provider, reason })
  return badRequest()
}

/** The provider the path names, when it is an OIDC provider that opted in to back-channel logout. */
function logoutProvider(ctx: RequestContext): OAuthConfigInternal | undefined {
  const configured = ctx.req.providerId ? ctx.config.providersById.get(ctx.req.providerId) : undefined
  if (configured?.kind !== 'oauth' || configured.type !== 'oidc' || configured.backchannelLogout !== true)
    return undefined
  return oauthProviderFor(ctx, configured)
}

/** POST /backchannel-logout/:provider. */
export async function backchannelLogoutAction(ctx: RequestContext): Promise<ResponseInternal> {
  const options = ctx.config.backchannelLogout
  if (!options) return refused(ctx, 'logout-token', 'back-channel logout is not configured')
  const provider = logoutProvider(ctx)
  if (!provider)
    return refused(ctx, 'logout-token', 'no OIDC provider with backchannelLogout by this id', ctx.req.providerId)
  const token = ctx.req.body?.logout_token
  if (typeof token !== 'string' || token === '' || token.length > 16_384)
    return refused(ctx, 'logout-token', 'no usable logout_token parameter', provider.id)
  const env = effectEnv(ctx)
  const subject = await verifyLogoutToken(env, provider, token, options.maxTokenAge)
  if ('check' in subject) return refused(ctx, subject.check, subject.reason, provider.id)
  let result
  try {
    const strategy = ctx.config.session.strategy === 'database' && ctx.config.adapter ? 'database' : 'jwt'
    result = await endSessionsForLogout(env, ctx.config.adapter, provider, subject, strategy)
  } catch (err) {
    // The store or the adapter failed: the logout did not happen, which the spec answers with 400 as well.
    ctx.config.logger.error(
      new AuthError('back-channel logout could not end the sessions', {
        provider: provider.id,
        err: err instanceof Error ? err : undefined,
      }),
    )
    return badRequest()
  }
  if ('check' in result) return refused(ctx, result.check, result.reason, provider.id)
  ctx.config.logger.debug('backchannel-logout', { provider: provider.id, ended: result.ended })
  return { status: 200, body: '', headers: noStore }
}
