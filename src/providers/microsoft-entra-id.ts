/**
 * Sign in with Microsoft Entra ID (formerly Azure AD), work, school and personal Microsoft accounts.
 * @module providers/microsoft-entra-id
 */
import { requestWithBearer } from '../providers-internal/bearer-request.js'
import type { OIDCConfig, OIDCUserConfig } from '../types/providers.js'
import { customFetch } from '../types/symbols.js'
import { environmentVariable } from '../providers-internal/names.js'

/** Claims of an Entra ID v2.0 ID token. */
export interface MicrosoftEntraIDProfile {
  sub: string
  oid?: string
  tid?: string
  name?: string
  email?: string
  preferred_username?: string
  [claim: string]: unknown
}

/** Sizes Microsoft Graph serves profile photos in. */
export type EntraPhotoSize = 48 | 64 | 96 | 120 | 240 | 360 | 432 | 504 | 648

/** Options of `MicrosoftEntraID()`: the tenant (or a full `issuer`) and the size of the profile photo to fetch. */
export type MicrosoftEntraIDUserConfig = OIDCUserConfig<MicrosoftEntraIDProfile> & {
  /** A tenant id or domain, or `common` (default), `organizations` or `consumers`. Ignored when `issuer` is set. */
  tenantId?: string
  /** Size of the photo fetched from Microsoft Graph; `0` skips the request. Default 48. */
  profilePhotoSize?: EntraPhotoSize | 0
}

/** The photo is fetched from the user's profile() call, which has no timeout of its own to inherit. */
const photoTimeoutMs = 3000

async function fetchPhoto(
  options: MicrosoftEntraIDUserConfig,
  size: number,
  accessToken: string | undefined,
): Promise<string | null> {
  if (size === 0 || !accessToken) return null
  // Entra: the ID token has no picture claim; the photo is a separate binary resource on Microsoft Graph.
  const provider = { id: 'microsoft-entra-id', [customFetch]: options[customFetch] }
  try {
    const response = await requestWithBearer(
      provider,
      `https://graph.microsoft.com/v1.0/me/photos/${size}x${size}/$value`,
      accessToken,
      {
        optional: true,
        headers: { accept: 'image/*' },
        signal: AbortSignal.timeout(photoTimeoutMs),
      },
    )
    if (!response) return null
    const bytes = Buffer.from(await response.arrayBuffer())
    return `data:${response.headers.get('content-type') ?? 'image/jpeg'};base64,${bytes.toString('base64')}`
  } catch {
    // The photo is decoration: a Graph outage must not fail the sign-in.
    return null
  }
}

/**
 * Microsoft Entra ID as an OIDC provider. The issuer is tenant-based:
 * `https://login.microsoftonline.com/<tenant>/v2.0`. For the multi-tenant values (`common`, `organizations`,
 * `consumers`) Microsoft's discovery document names the issuer as a `{tenantid}` template, which the ID token checks
 * fill from the token's `tid` claim.
 * @see https://learn.microsoft.com/en-us/entra/identity-platform/v2-protocols-oidc
 */
export default function MicrosoftEntraID(
  options: MicrosoftEntraIDUserConfig = {},
): OIDCConfig<MicrosoftEntraIDProfile> {
  const { tenantId, profilePhotoSize = 48 } = options
  // As in Auth.js: an issuer given wins, then (with no tenant given) AUTH_MICROSOFT_ENTRA_ID_ISSUER, then the
  // `common` tenant. The variable is read here because the factory's own default would otherwise hide it.
  const issuer =
    options.issuer ??
    (tenantId === undefined ? environmentVariable('AUTH_MICROSOFT_ENTRA_ID_ISSUER') : undefined) ??
    `https://login.microsoftonline.com/${tenantId ?? 'common'}/v2.0`
  return {
    id: 'microsoft-entra-id',
    name: 'Microsoft Entra ID',
    type: 'oidc',
    issuer,
    authorization: { params: { scope: 'openid profile email User.Read' } },
    async profile(profile, tokens) {
      const image = await fetchPhoto(options, profilePhotoSize, tokens.access_token)
      // Entra: `preferred_username` looks like an address but is neither verified nor stable, so it is not the e-mail.
      return { id: profile.sub, name: profile.name ?? null, email: profile.email ?? null, image }
    },
    style: { brandColor: '#0072c6' },
    // As in Auth.js, the issuer also stands in `options`, where apps and Auth.js's own tests read it.
    options: { ...options, issuer },
  }
}
