/** Which user resolution a sign-in uses: the provider's profile alone (no adapter), or the adapter's records. */
import { adapterUserResolution } from '../effects/oauth/adapter-user-resolution.js'
import type { EffectEnv } from '../effects/shared/effect-env.js'
import { profileIsTheUser, type UserResolution } from '../effects/oauth/oauth-flow.js'
import { unprovenPasskeyCheck } from '../effects/webauthn/unproven-passkey-account.js'
import { databaseSignInRecord } from '../effects/session/session-record.js'
import { readChunkedCookie } from '../session/cookie-chunks.js'
import { readSessionToken } from '../session/session-token.js'
import type { RequestContext } from './context.js'
import type { FlowUser } from '../../machines/sign-in-completion.js'
import type { User } from '../types/index.js'

/** The signed-in user of a request, with what the session records of the sign-in (`auth_time`, when it does). */
export interface SignedInSession {
  userId: string
  /** The session's claims as `recentAuthentication` reads them: the JWT's, or a database session's record. */
  claims: { auth_time?: unknown }
}

/** The session this browser already has (for linking a further provider, managing factors), or null. */
export async function signedInSession(ctx: RequestContext): Promise<SignedInSession | null> {
  const raw = readChunkedCookie(ctx.cookies.sessionToken.name, ctx.req.cookies)
  if (!raw || !ctx.config.adapter) return null
  if (ctx.config.session.strategy === 'database') {
    const found = await ctx.config.adapter.getSessionAndUser(raw)
    if (!found || found.session.expires.getTime() <= ctx.now * 1000) return null
    // When its user signed in: the row's record, else the session store's (under session management).
    const signIn = await databaseSignInRecord(ctx.config, found.session)
    return { userId: found.user.id, claims: { auth_time: signIn?.authTime } }
  }
  const token = await readSessionToken(ctx.config, ctx.cookies.sessionToken.name, raw, ctx.now)
  return typeof token?.sub === 'string' ? { userId: token.sub, claims: { auth_time: token.auth_time } } : null
}

/** The user of the session this browser already has (for linking a further provider), or null. */
export async function signedInUserId(ctx: RequestContext): Promise<string | null> {
  return (await signedInSession(ctx))?.userId ?? null
}

/** The user resolution for this request's config. */
export function userResolutionFor(ctx: RequestContext, env: EffectEnv): UserResolution {
  const adapter = ctx.config.adapter
  if (!adapter) return profileIsTheUser
  return adapterUserResolution(
    env,
    adapter,
    () => signedInUserId(ctx),
    unprovenPasskeyCheck(adapter, passkeysServed(ctx)),
  )
}

/** A WebAuthn provider is configured: its passkeys can sign in, and the adapter can list them. */
export function passkeysServed(ctx: RequestContext): boolean {
  return [...ctx.config.providersById.values()].some((p) => p.kind === 'webauthn')
}

/** The session's user: the adapter's record when it keeps users (every field the callbacks expect), else `user`. */
export async function storedUserOf(ctx: RequestContext, user: FlowUser): Promise<User> {
  const adapter = ctx.config.adapter
  if (typeof ctx.config.source.adapter?.getUser === 'function' && adapter && user.id) {
    const found = await adapter.getUser(user.id)
    if (found) return found
  }
  return user
}
