/**
 * Sign in with Apple (OpenID Connect, web flow).
 * @module providers/apple
 */
import type { OIDCConfig, OIDCUserConfig } from '../types/providers.js'

/** The `user` field Apple posts with the first authorization only. */
export interface AppleFirstSignInUser {
  name?: { firstName?: string; lastName?: string }
  email?: string
}

/** Claims of an Apple ID token, plus `user` when the callback carried it. */
export interface AppleProfile {
  sub: string
  email?: string
  /** Apple sends booleans here as the strings "true" / "false". */
  email_verified?: boolean | 'true' | 'false'
  is_private_email?: boolean | 'true' | 'false'
  user?: AppleFirstSignInUser
  [claim: string]: unknown
}

function displayName(user: AppleFirstSignInUser | undefined): string | undefined {
  const parts = [user?.name?.firstName, user?.name?.lastName].filter((part): part is string => Boolean(part))
  return parts.length > 0 ? parts.join(' ') : undefined
}

/**
 * Apple as an OIDC provider. `clientSecret` is the JWT you sign with your Apple key (Apple does not issue static
 * secrets), and the callback is a cross-site POST (`response_mode=form_post`), so the flow cookie must be sent on
 * such a request (SameSite=None) for the callback to find its flow.
 * @see https://developer.apple.com/documentation/sign_in_with_apple/request_an_authorization_to_the_sign_in_with_apple_server
 */
export default function Apple(options: OIDCUserConfig<AppleProfile> = {}): OIDCConfig<AppleProfile> {
  return {
    id: 'apple',
    name: 'Apple',
    type: 'oidc',
    issuer: 'https://appleid.apple.com',
    // Apple: asking for the name or e-mail scope requires response_mode=form_post.
    authorization: { params: { scope: 'name email', response_mode: 'form_post' } },
    // Apple: the token endpoint takes the client secret JWT in the form body.
    client: { token_endpoint_auth_method: 'client_secret_post' },
    checks: ['nonce', 'state'],
    profile: (profile) => ({
      id: profile.sub,
      // Apple: the name exists only in the first authorization's `user` field, never in the ID token; later sign-ins
      // fall back to the e-mail address, as Auth.js does.
      name: displayName(profile.user) ?? profile.email ?? null,
      email: profile.email ?? null,
      image: null,
    }),
    style: { brandColor: '#000000' },
    options,
  }
}
