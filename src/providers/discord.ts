/**
 * Sign in with Discord.
 * @module providers/discord
 */
import type { OAuthConfig, OAuthUserConfig } from '../types/providers.js'

/** The user as Discord's `GET /users/@me` returns it. */
export interface DiscordProfile {
  id: string
  username: string
  global_name: string | null
  /** "0" for accounts migrated to unique usernames; the old four-digit tag otherwise. */
  discriminator: string
  avatar: string | null
  email?: string | null
  verified?: boolean
  [field: string]: unknown
}

/** The avatar URL Discord's CDN serves for a user, including the default avatar when none is set. */
export function discordAvatarUrl(profile: Pick<DiscordProfile, 'id' | 'discriminator' | 'avatar'>): string {
  if (profile.avatar) {
    // Discord: animated avatars have hashes starting with "a_" and are served as GIF.
    const format = profile.avatar.startsWith('a_') ? 'gif' : 'png'
    return `https://cdn.discordapp.com/avatars/${profile.id}/${profile.avatar}.${format}`
  }
  // Discord: the default avatar index is (id >> 22) % 6 for unique usernames, and discriminator % 5 for legacy tags.
  const index =
    profile.discriminator === '0'
      ? Number((BigInt(profile.id) >> 22n) % 6n)
      : Number.parseInt(profile.discriminator, 10) % 5
  return `https://cdn.discordapp.com/embed/avatars/${index}.png`
}

/**
 * Discord as an OAuth 2 provider.
 * @see https://discord.com/developers/docs/topics/oauth2
 */
export default function Discord(options: OAuthUserConfig<DiscordProfile> = {}): OAuthConfig<DiscordProfile> {
  return {
    id: 'discord',
    name: 'Discord',
    type: 'oauth',
    authorization: { url: 'https://discord.com/api/oauth2/authorize', params: { scope: 'identify email' } },
    token: 'https://discord.com/api/oauth2/token',
    userinfo: 'https://discord.com/api/users/@me',
    profile: (profile) => ({
      id: profile.id,
      name: profile.global_name ?? profile.username,
      // Discord: the address may be unverified; only a verified one is offered to account linking.
      email: profile.verified === false ? null : (profile.email ?? null),
      image: discordAvatarUrl(profile),
    }),
    style: { brandColor: '#5865f2' },
    options,
  }
}
