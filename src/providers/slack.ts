/**
 * Sign in with Slack (OpenID Connect).
 * @module providers/slack
 */
import type { OIDCConfig, OIDCUserConfig } from '../types/providers.js'

/** Claims of a Slack ID token; Slack's own claims are namespaced with https://slack.com/. */
export interface SlackProfile {
  sub: string
  'https://slack.com/user_id': string
  'https://slack.com/team_id': string
  email?: string
  email_verified?: boolean
  name?: string
  picture?: string
  'https://slack.com/user_image_512'?: string
  [claim: string]: unknown
}

/**
 * Slack as an OIDC provider ("Sign in with Slack").
 * @see https://docs.slack.dev/authentication/sign-in-with-slack/
 */
export default function Slack(options: OIDCUserConfig<SlackProfile> = {}): OIDCConfig<SlackProfile> {
  return {
    id: 'slack',
    name: 'Slack',
    type: 'oidc',
    issuer: 'https://slack.com',
    authorization: { params: { scope: 'openid profile email' } },
    // Slack: openid.connect.token takes no code_verifier, so PKCE cannot be used; nonce and state protect the flow.
    // Slack also answers token errors with status 200 and `ok: false`, which the token response checks refuse.
    checks: ['nonce', 'state'],
    // The user Auth.js makes of Slack's claims (its default mapping): the subject, name, e-mail and picture; the
    // larger image claim stands in only when there is no picture.
    profile: (profile) => ({
      id: profile.sub,
      name: profile.name ?? null,
      email: profile.email ?? null,
      image: profile.picture ?? profile['https://slack.com/user_image_512'] ?? null,
    }),
    style: { brandColor: '#611f69' },
    options,
  }
}
