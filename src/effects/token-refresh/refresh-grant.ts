/**
 * One refresh at the provider's token endpoint (RFC 6749 §6) through openid-client, with the same guarded fetch,
 * client authentication and ID token checks as the sign-in's code exchange. How it ended is sorted into the two
 * kinds that matter to the session: the provider refused the grant (the refresh token is dead: the user must sign in
 * again), or the provider could not be asked (try again later, the session is left alone).
 */
import * as client from 'openid-client'
import { AuthError } from '../../errors.js'
import type { OAuthConfigInternal } from '../../types/providers.js'
import { resolveProviderClient } from '../oauth/client-configuration.js'
import { runCodeExchange } from '../oauth/code-exchange-context.js'
import { findAuthError, isTimeout, loggable } from '../oauth/oauth-failure.js'
import { withExpiresAt } from '../oauth/user-and-account.js'
import { providerTokensOf, type ProviderTokens } from './provider-tokens.js'

/** How one refresh ended. `at` is when it ended, epoch milliseconds. */
export type RefreshOutcome =
  | { kind: 'refreshed'; tokens: ProviderTokens; at: number }
  /** The provider refused: `reason` is its error code (`invalid_grant` …) or the check that failed. */
  | { kind: 'refused'; reason: string; at: number }
  /** The provider, or a store on the way, could not be reached. */
  | { kind: 'unavailable'; reason: string; at: number }

/** Checks of ours whose failure means the answer must not be trusted: the session must start again. */
const untrustedAnswer = new Set(['id_token', 'nonce', 'token_type'])

function refused(reason: string): RefreshOutcome {
  return { kind: 'refused', reason, at: Date.now() }
}

function unavailable(reason: string): RefreshOutcome {
  return { kind: 'unavailable', reason, at: Date.now() }
}

/** RFC 6749 §5.2: a 4xx answer with an `error` code is the provider's word on the grant; a 5xx is an outage. */
function byStatus(status: unknown, error: unknown): RefreshOutcome | undefined {
  if (typeof status !== 'number' || typeof error !== 'string') return undefined
  return status >= 400 && status < 500 ? refused(loggable(error) ?? 'error') : unavailable(`status ${status}`)
}

/** Sorts a failed refresh, logging what an operator needs to see (never a token). */
function classify(err: unknown, providerId: string, log: (error: Error) => void): RefreshOutcome {
  const own = findAuthError(err)
  const cause = own?.cause as { check?: unknown; status?: unknown; error?: unknown } | undefined
  const answered = byStatus(cause?.status, cause?.error)
  if (answered?.kind === 'refused') return answered
  if (typeof cause?.check === 'string' && untrustedAnswer.has(cause.check)) {
    log(own as AuthError)
    return refused(cause.check)
  }
  if (err instanceof client.ResponseBodyError) {
    const fromBody = byStatus(err.status, err.error)
    if (fromBody?.kind === 'refused') return fromBody
  }
  const reason = isTimeout(err) ? 'timeout' : answered ? 'provider error' : 'unreachable'
  log(
    new AuthError(`token refresh at provider "${providerId}" failed: ${reason}`, {
      provider: providerId,
      check: 'refresh',
      ...(typeof cause?.check === 'string' ? { step: cause.check } : {}),
      ...(answered ? { status: cause?.status } : {}),
      err: own ?? (err instanceof Error ? err : undefined),
    }),
  )
  return unavailable(reason)
}

/**
 * Exchanges `refreshToken` at the provider.
 * @returns the new tokens (the refresh token kept when the provider issued no new one, as RFC 6749 §6 allows), or
 *   how the refresh failed
 */
export async function exchangeRefreshToken(
  provider: OAuthConfigInternal,
  refreshToken: string,
  options: { timeoutMs: number; log: (error: Error) => void },
): Promise<RefreshOutcome> {
  try {
    const providerClient = await resolveProviderClient(provider, options.timeoutMs)
    const nowSeconds = Math.floor(Date.now() / 1000)
    const response = await runCodeExchange({ grant: 'refresh_token', now: nowSeconds }, () =>
      client.refreshTokenGrant(providerClient.config, refreshToken),
    )
    const tokens = providerTokensOf(withExpiresAt({ ...response }, nowSeconds))
    if (!tokens.access_token) return refused('no access_token')
    return {
      kind: 'refreshed',
      tokens: { ...tokens, refresh_token: tokens.refresh_token ?? refreshToken },
      at: Date.now(),
    }
  } catch (err) {
    return classify(err, provider.id, options.log)
  }
}
