/**
 * Sign in with Twitch (OpenID Connect).
 * @module providers/twitch
 */
import type { OIDCConfig, OIDCUserConfig } from '../types/providers.js'

/** Claims of a Twitch ID token (with the claims the authorization request asks for). */
export interface TwitchProfile {
  sub: string
  preferred_username?: string
  email?: string
  email_verified?: boolean
  picture?: string
  [claim: string]: unknown
}

/**
 * Twitch: the token endpoint returns `scope` as a JSON array (RFC 6749 §5.1 says a space-separated string), and
 * errors as `{ status, message }` without the `error` member. This rewrites both into the standard shape.
 */
export async function conformTwitchTokenResponse(response: Response): Promise<Response | undefined> {
  let body: unknown
  try {
    body = await response.json()
  } catch {
    return undefined
  }
  if (typeof body !== 'object' || body === null) return undefined
  const record = body as Record<string, unknown>
  if (!response.ok && typeof record.error !== 'string') {
    return Response.json({ error: 'invalid_request', error_description: record.message }, { status: response.status })
  }
  if (Array.isArray(record.scope))
    return Response.json({ ...record, scope: record.scope.join(' ') }, { status: response.status })
  return undefined
}

/**
 * Twitch as an OIDC provider.
 * @see https://dev.twitch.tv/docs/authentication/getting-tokens-oidc/
 */
export default function Twitch(options: OIDCUserConfig<TwitchProfile> = {}): OIDCConfig<TwitchProfile> {
  return {
    id: 'twitch',
    name: 'Twitch',
    type: 'oidc',
    issuer: 'https://id.twitch.tv/oauth2',
    authorization: {
      params: {
        scope: 'openid user:read:email',
        // Twitch: e-mail, picture and username are only in the ID token when requested through the claims parameter.
        claims: JSON.stringify({
          id_token: { email: null, email_verified: null, picture: null, preferred_username: null },
        }),
      },
    },
    // Twitch: the token endpoint takes the client secret in the form body.
    client: { token_endpoint_auth_method: 'client_secret_post' },
    token: { conform: conformTwitchTokenResponse },
    profile: (profile) => ({
      id: profile.sub,
      name: profile.preferred_username ?? null,
      email: profile.email ?? null,
      image: profile.picture ?? null,
    }),
    style: { brandColor: '#9146ff' },
    options,
  }
}
