/**
 * POST <basePath>/backchannel-logout/<provider>: an OpenID provider tells this site that a user's session there
 * ended (OpenID Connect Back-Channel Logout 1.0). The back-channel logout machine decides; this maps its outcome to
 * the answer: 200 when the sessions it names have ended, 400 with `{"error":"invalid_request"}` for a refused token
 * (logged once by the runtime) or a store that failed, never cached.
 */
import { backchannelLogoutEffects } from '../../effects/session/backchannel-logout-flow.js'
import type { ResponseInternal } from '../../types/index.js'
import type { OAuthConfigInternal } from '../../types/providers.js'
import type { RequestContext } from '../context.js'
import { effectEnv, runMachine } from '../effect-outcome.js'
import { oauthProviderFor } from '../oauth-providers.js'

const noStore = { 'cache-control': 'no-store' }

/** The provider the path names, when it is an OIDC provider that opted in to back-channel logout. */
function logoutProvider(ctx: RequestContext): OAuthConfigInternal | undefined {
  const configured = ctx.req.providerId ? ctx.config.providersById.get(ctx.req.providerId) : undefined
  if (configured?.kind !== 'oauth' || configured.type !== 'oidc' || configured.backchannelLogout !== true)
    return undefined
  return oauthProviderFor(ctx, configured)
}

/** POST /backchannel-logout/:provider. */
export async function backchannelLogoutAction(ctx: RequestContext): Promise<ResponseInternal> {
  const provider = logoutProvider(ctx)
  const token = ctx.req.body?.logout_token
  const logoutToken = typeof token === 'string' ? token : undefined
  const database = ctx.config.session.strategy === 'database' && ctx.config.adapter !== undefined
  const handlers = backchannelLogoutEffects(effectEnv(ctx), {
    provider,
    logoutToken,
    options: ctx.config.backchannelLogout,
    adapter: ctx.config.adapter,
  })
  const event = {
    type: 'LOGOUT_TOKEN_RECEIVED',
    providerId: provider?.id ?? ctx.req.providerId,
    configured: ctx.config.backchannelLogout !== undefined,
    providerAccepts: provider !== undefined,
    tokenLength: logoutToken?.length ?? 0,
    sessionStrategy: database ? 'database' : 'jwt',
  }
  const result = await runMachine(ctx, ctx.config.machines.backchannelLogout, event, handlers)
  if (result.value !== 'ended')
    return {
      status: 400,
      body: { error: 'invalid_request' },
      headers: { ...noStore, 'content-type': 'application/json' },
    }
  ctx.config.logger.debug('backchannel-logout', { provider: provider?.id, ended: result.context.ended ?? 0 })
  return { status: 200, body: '', headers: noStore }
}
