/**
 * Sign in with Notion (public integrations).
 * @module providers/notion
 */
import { requestJsonWithBearer } from '../providers-internal/bearer-request.js'
import type { OAuthConfig, OAuthConfigInternal, OAuthUserConfig } from '../types/providers.js'
import type { TokenSet } from '../types/index.js'

/** A Notion user object (`type: "person"`). */
export interface NotionProfile {
  object: 'user'
  id: string
  type: 'person' | 'bot'
  name: string | null
  avatar_url: string | null
  person?: { email?: string }
  [field: string]: unknown
}

/** Notion: `refresh_token` may come back as null, which is not a token; it is left out rather than stored. */
async function withoutEmptyRefreshToken(response: Response): Promise<Response | undefined> {
  if (!response.ok) return undefined
  const body = (await response.json()) as Record<string, unknown>
  if (typeof body.refresh_token === 'string') return undefined
  delete body.refresh_token
  return Response.json(body, { status: response.status })
}

/** Options of `Notion()`: the usual ones, plus the Notion API version header to send. */
export type NotionUserConfig = OAuthUserConfig<NotionProfile> & { notionVersion?: string }

/**
 * Notion as an OAuth 2 provider.
 * @see https://developers.notion.com/docs/authorization
 */
export default function Notion(options: NotionUserConfig = {}): OAuthConfig<NotionProfile> {
  const { notionVersion = '2022-06-28', ...rest } = options
  async function fetchOwner({
    tokens,
    provider,
  }: {
    tokens: TokenSet
    provider: OAuthConfigInternal
  }): Promise<unknown> {
    // Notion: an integration token's own user is the bot; the person who authorized it is the bot's owner, with
    // their e-mail address. Every call names the API version.
    const me = (await requestJsonWithBearer(provider, 'https://api.notion.com/v1/users/me', tokens.access_token, {
      headers: { 'notion-version': notionVersion },
    })) as {
      bot?: { owner?: { user?: unknown } }
    }
    return me.bot?.owner?.user
  }
  return {
    id: 'notion',
    name: 'Notion',
    type: 'oauth',
    authorization: { url: 'https://api.notion.com/v1/oauth/authorize', params: { owner: 'user' } },
    token: { url: 'https://api.notion.com/v1/oauth/token', conform: withoutEmptyRefreshToken },
    userinfo: { url: 'https://api.notion.com/v1/users', request: fetchOwner },
    // Notion: HTTP Basic client authentication at the token endpoint, and state on the authorization request.
    client: { token_endpoint_auth_method: 'client_secret_basic' },
    checks: ['state'],
    profile: (profile) => ({
      id: profile.id,
      name: profile.name,
      email: profile.person?.email ?? null,
      image: profile.avatar_url,
    }),
    style: { brandColor: '#000000' },
    options: rest,
  }
}
