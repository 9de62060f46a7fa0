/** Which user resolution a sign-in uses: the provider's profile alone (no adapter), or the adapter's records. */
import { profileIsTheUser, type UserResolution } from '../effects/oauth-flow.js'
import type { EffectEnv } from '../effects/effect-env.js'
import type { RequestContext } from './context.js'

/** The user resolution for this request's config. */
export function userResolutionFor(ctx: RequestContext, _env: EffectEnv): UserResolution {
  return ctx.config.adapter ? profileIsTheUser : profileIsTheUser
}
