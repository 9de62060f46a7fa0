/**
 * Handlers of the back-channel logout machine's commands (machines/backchannel-logout.ts). They verify the token,
 * claim its id and end the sessions, and report what happened; the machine decides what is refused and how the
 * request is answered. The verified token's subject goes from the verification to the store steps in the run's
 * scratch (`BackchannelLogoutScratch`), never through the machine: a step can only act on a token this request
 * verified, and the snapshot carries no session id.
 */
import type { HandlersFor } from '../../../machines/contract.js'
import type {
  BackchannelLogoutCommand,
  backchannelLogoutContract,
  BackchannelLogoutEvent,
} from '../../../machines/backchannel-logout.js'
import { AdapterError, AuthError } from '../../errors.js'
import type { WrappedAdapter } from '../../types/adapters.js'
import type { LogoutStore } from '../../types/logout-store.js'
import type { OAuthConfigInternal } from '../../types/providers.js'
import type { EffectEnv } from '../shared/effect-env.js'
import {
  claimLogoutTokenId,
  deleteLoggedOutSessions,
  releaseLogoutTokenId,
  revokeLoggedOutSessions,
  verifyLogoutToken,
  type LogoutSubject,
} from './backchannel-logout.js'

/** What the handlers of one logout request hand each other in the run's scratch. */
export interface BackchannelLogoutScratch {
  /** Whose sessions the verified logout token ends (its `sub`, `sid` and `jti`). */
  subject: LogoutSubject
}

/** The back-channel logout machine's handlers, as its contract types them. */
export type BackchannelLogoutHandlers = HandlersFor<
  BackchannelLogoutCommand,
  BackchannelLogoutEvent,
  typeof backchannelLogoutContract,
  BackchannelLogoutScratch
>

/** What the request brought and the config holds; the machine runs no command before it has checked all of it. */
export interface BackchannelLogoutInput {
  provider?: OAuthConfigInternal
  logoutToken?: string
  options?: { store: LogoutStore; maxTokenAge: number }
  adapter?: WrappedAdapter
}

/** Builds the handlers for one request. */
export function backchannelLogoutEffects(env: EffectEnv, input: BackchannelLogoutInput) {
  /** What a command needs; missing only if the machine ran a command before its checks passed, which is a bug. */
  function checked<T>(value: T | undefined, what: string): T {
    if (value === undefined) throw new AuthError(`back-channel logout ran a command without ${what}`)
    return value
  }

  /**
   * Runs a store or adapter step; a failure is logged here and answered as STORE_FAILED. A step after the token id
   * was claimed gives the claim back when it fails: the provider retries a logout that got an error answer.
   */
  async function storeStep<E extends BackchannelLogoutEvent>(
    step: () => Promise<E>,
    claimed?: { store: LogoutStore; subject: LogoutSubject },
  ): Promise<E | { type: 'STORE_FAILED' }> {
    try {
      return await step()
    } catch (err) {
      // An adapter failure was logged by the adapter wrapper where it happened; a store failure is logged here.
      if (!(err instanceof AdapterError))
        env.config.logger.error(
          new AuthError('back-channel logout could not end the sessions', {
            provider: input.provider?.id,
            err: err instanceof Error ? err : undefined,
          }),
        )
      if (claimed) await releaseLogoutTokenId(claimed.store, claimed.subject).catch(() => {})
      return { type: 'STORE_FAILED' }
    }
  }

  return {
    async verifyLogoutToken(_params, scratch) {
      const provider = checked(input.provider, 'a provider')
      const { maxTokenAge } = checked(input.options, 'a logout store')
      const verified = await verifyLogoutToken(env, provider, checked(input.logoutToken, 'a token'), maxTokenAge)
      if ('refused' in verified) return { type: 'TOKEN_REJECTED', reason: verified.refused }
      scratch.subject = verified
      return { type: 'TOKEN_VERIFIED' }
    },

    claimTokenId(_params, { subject }) {
      const { store } = checked(input.options, 'a logout store')
      const verified = checked(subject, 'a verified token')
      return storeStep(async () =>
        (await claimLogoutTokenId(env, store, verified))
          ? { type: 'TOKEN_ID_CLAIMED' as const }
          : { type: 'TOKEN_ID_REPLAYED' as const },
      )
    },

    deleteSessions(_params, { subject }) {
      const { store } = checked(input.options, 'a logout store')
      const adapter = checked(input.adapter, 'an adapter')
      const provider = checked(input.provider, 'a provider')
      const verified = checked(subject, 'a verified token')
      return storeStep(
        async () => ({
          type: 'SESSIONS_DELETED' as const,
          ended: await deleteLoggedOutSessions(env, store, adapter, provider.id, verified),
        }),
        { store, subject: verified },
      )
    },

    revokeSessions(_params, { subject }) {
      const { store } = checked(input.options, 'a logout store')
      const provider = checked(input.provider, 'a provider')
      const verified = checked(subject, 'a verified token')
      return storeStep(
        async () => {
          await revokeLoggedOutSessions(env, store, provider.id, verified)
          return { type: 'SESSIONS_REVOKED' as const }
        },
        { store, subject: verified },
      )
    },
  } satisfies BackchannelLogoutHandlers
}
