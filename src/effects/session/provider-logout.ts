/**
 * The `buildProviderLogoutUrl` command (OpenID Connect RP-Initiated Logout 1.0): the provider's discovered
 * `end_session_endpoint`, with `id_token_hint` when the session kept the ID token, `client_id`, and the URL the
 * redirect callback already approved as `post_logout_redirect_uri` (absolute, as the provider compares it with the
 * registered ones).
 */
import * as client from 'openid-client'
import { SignOutError } from '../../errors.js'
import { logRefusal } from '../../logger.js'
import type { OAuthConfigInternal } from '../../types/providers.js'
import { resolveProviderClient } from '../oauth/client-configuration.js'
import { findAuthError } from '../oauth/oauth-failure.js'
import type { EffectEnv } from '../shared/effect-env.js'

/** What a sign-out knows about the provider to end the session at. */
export interface ProviderLogoutTarget {
  provider: OAuthConfigInternal
  /** The session's ID token; without it the provider learns the client only (`client_id`). */
  idToken?: string
}

/** How the session effects reach the providers that ask for RP-initiated logout. */
export interface SessionLogoutInput {
  /** The configured provider with this id, when it is an OIDC provider with `endSessionAtProvider`. */
  endSessionProvider(id: string): OAuthConfigInternal | undefined
  /** A provider the sign-out request named (database sessions: the session row does not say where it came from). */
  requestedProvider?: string
  /**
   * Database sessions: the adapter can list a user's accounts (`listAccountsByUserId`, an Authchart method), so the
   * ID token the account row keeps can go out as `id_token_hint`.
   */
  accountsListable?: boolean
}

/** Builds the provider's logout URL; answers PROVIDER_LOGOUT_UNAVAILABLE (logged) when it cannot. */
export async function buildProviderLogoutUrl(
  env: EffectEnv,
  target: ProviderLogoutTarget | undefined,
  params: { postLogoutRedirectUri: string },
): Promise<{ type: 'PROVIDER_LOGOUT_URL_BUILT'; url: string } | { type: 'PROVIDER_LOGOUT_UNAVAILABLE' }> {
  if (!target) return { type: 'PROVIDER_LOGOUT_UNAVAILABLE' }
  try {
    const { config } = await resolveProviderClient(target.provider, env.config.providerTimeout)
    if (!config.serverMetadata().end_session_endpoint) {
      env.config.logger.error(
        new SignOutError('the provider names no end_session_endpoint: signed out here only', {
          provider: target.provider.id,
        }),
      )
      return { type: 'PROVIDER_LOGOUT_UNAVAILABLE' }
    }
    const parameters: Record<string, string> = {}
    // The return URL leaves the request for the provider: never one the request's `Host` alone chose. Without it the
    // provider ends its session and shows its own page.
    const { outboundBaseUrl } = env
    if (outboundBaseUrl !== undefined) {
      parameters.post_logout_redirect_uri = new URL(
        params.postLogoutRedirectUri || outboundBaseUrl,
        outboundBaseUrl,
      ).href
    } else {
      logRefusal(env.config.logger, 'outbound-origin', {
        provider: target.provider.id,
        origin: env.baseUrl,
        reason: 'no url (AUTH_URL) and the request origin is not on allowedOrigins: no post_logout_redirect_uri',
      })
    }
    if (target.idToken) parameters.id_token_hint = target.idToken
    return { type: 'PROVIDER_LOGOUT_URL_BUILT', url: client.buildEndSessionUrl(config, parameters).href }
  } catch (err) {
    env.config.logger.error(
      findAuthError(err) ??
        new SignOutError('the provider logout URL could not be built: signed out here only', {
          provider: target.provider.id,
          err: err instanceof Error ? err : undefined,
        }),
    )
    return { type: 'PROVIDER_LOGOUT_UNAVAILABLE' }
  }
}
