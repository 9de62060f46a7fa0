/**
 * Handlers of the second-factor commands of the shared completion (machines/sign-in-completion.ts), the same for
 * every sign-in method: the check (is the user enrolled, does the policy want a factor it lacks), the attempt
 * counter (counted on the challenge and on the account before the answer is looked at, on the same counters as the
 * credentials limits, in memory or on Redis), and the verification (a TOTP step or a recovery code, each spent once
 * through the adapter's atomic methods). No code, secret or account name reaches a log.
 */
import { hash } from 'node:crypto'
import { AdapterError, CallbackRouteError } from '../../errors.js'
import { hashRecoveryCode } from '../../factors/recovery-codes.js'
import { openTotpSecret } from '../../factors/secret-seal.js'
import { checkTotpCode } from '../../factors/totp.js'
import { logRefusal } from '../../logger.js'
import { isLastFactorAttempt } from '../../security/flow-guards.js'
import { randomToken } from '../../security/random.js'
import type { WrappedAdapter } from '../../types/adapters.js'
import type { SecondFactorKind, SecondFactorPolicy } from '../../types/factor-management.js'
import type { Account, User } from '../../types/index.js'
import type { FailureCounter } from '../../types/providers.js'
import type { FlowAccount, FlowUser } from '../../../machines/sign-in-completion.js'
import { emitAppEvent } from './app-events.js'
import type { EffectEnv } from './effect-env.js'
import type { SignInScratch } from './sign-in-scratch.js'

/** The `secondFactor` option with its defaults applied. */
export interface ResolvedSecondFactor {
  policy: SecondFactorPolicy<User, Account>
  passkeyCountsAsTwo: boolean
  challengeSeconds: number
  maxAttemptsPerAccount: number
  windowSeconds: number
  /** Where attempts are counted: the app's counter (Redis for several instances) or this process's memory. */
  store: FailureCounter
}

/** The adapter's factor methods the challenge reads and spends through. */
export type FactorStore = Pick<WrappedAdapter, 'listFactorsByUserId' | 'useTotpStep' | 'useRecoveryCode'>

/** What one request's second-factor handlers work with. */
export interface SecondFactorInput {
  settings: ResolvedSecondFactor
  /** Undefined when the adapter stores no factors: then nobody is enrolled. */
  factors: FactorStore | undefined
  secrets: readonly string[]
  /** A passkey as an answer: present when the app serves passkeys (a WebAuthn provider) and the adapter keeps them. */
  passkey?: PasskeyAnswerer
  /** The answer the browser posted to the challenge, on the request that resumes it (`data`: a passkey's assertion). */
  answer?: { factor: unknown; code: unknown; data?: unknown }
}

/** What a passkey answer came to: the passkey's device type on success (the session's `amr` names it). */
export type PasskeyAnswerResult = { ok: true; deviceType: string } | { ok: false; reason: string }

/** The passkey answer of the challenge (src/effects/webauthn/passkey-second-factor.ts). */
export interface PasskeyAnswerer {
  /** Whether the user holds a passkey that could answer. */
  held(userId: string): Promise<boolean>
  /** The request options for the challenge `challenge` of the user, or undefined when they hold no passkey. */
  options(params: { userId: string; challenge: string }): Promise<Record<string, unknown> | undefined>
  /** Verifies the posted assertion (`data`) against the challenge and the user's own passkeys; spends its counter. */
  verify(params: { userId: string; challenge: string; data: unknown }): Promise<PasskeyAnswerResult>
}

/** Stored keys name a digest of the user id or challenge, never the id itself. */
const keyOf = (kind: 'challenge' | 'passed' | 'account', value: string): string =>
  `authchart:second-factor:${kind}:${hash('sha256', value, 'base64url').slice(0, 32)}`

/** A challenge's attempts past this count as spent, whatever the counter says (a passed challenge reads as this). */
const spentAttempts = Number.MAX_SAFE_INTEGER

/** The account a waiting challenge keeps: enough to issue the session later, never a provider token. */
function flowAccountOf(account: Account | null, providerId: string, userId: string): FlowAccount {
  return {
    provider: account?.provider ?? providerId,
    type: account?.type ?? 'credentials',
    providerAccountId: account?.providerAccountId ?? userId,
  }
}

function kindOf(value: unknown): SecondFactorKind | undefined {
  return value === 'otp' || value === 'recovery' || value === 'webauthn' ? value : undefined
}

/**
 * The three handlers, for one request. They read the method's user and account from the run's scratch
 * (`SignInScratch`), and leave there what the verification and the session of the same request need. Their answers
 * are the types their bodies return, so test/flow/contract-types.test.ts checks them against the contract.
 */
export function secondFactorHandlers(env: EffectEnv, input: SecondFactorInput) {
  const { logger } = env.config
  const { settings } = input

  const storeError = (what: string, err: unknown) =>
    logger.error(
      new CallbackRouteError(`the second-factor ${what} failed`, { err: err instanceof Error ? err : undefined }),
    )
  /**
   * A failed read of the user's factors. A database that failed or did not answer is an outage: 503 "try again",
   * as every sign-in step that needs the database answers (the adapter wrapper has logged it, once); anything else
   * refuses the sign-in.
   */
  const factorReadError = (what: string, err: unknown) => {
    if (err instanceof AdapterError) throw err
    storeError(what, err)
  }

  async function mustEnrol(user: User | null, account: Account | null): Promise<boolean> {
    const { policy } = settings
    if (policy === 'optional' || !user) return false
    if (policy === 'required') return true
    return (await policy(user, account)) === true
  }

  async function verifyOtp(userId: string, code: string): Promise<boolean> {
    if (!input.factors) return false
    const factors = await input.factors.listFactorsByUserId(userId)
    for (const factor of factors) {
      if (factor.type !== 'totp' || factor.secret === null) continue
      const opened = openTotpSecret(input.secrets, { userId, factorId: factor.id }, factor.secret)
      if (!opened) continue
      const step = checkTotpCode({ secret: opened.secret, code, nowMs: env.nowMs, lastUsedStep: factor.lastUsedStep })
      // The step is claimed atomically: of two requests with the same code, one wins.
      if (step !== null && (await input.factors.useTotpStep({ userId, factorId: factor.id, step }))) return true
    }
    return false
  }

  async function verifyRecovery(userId: string, code: string): Promise<boolean> {
    const codeHash = hashRecoveryCode(userId, code)
    if (!input.factors || codeHash === null) return false
    return input.factors.useRecoveryCode({ userId, codeHash })
  }

  /**
   * A passkey answer; `reason` says why one failed (logged, never the assertion itself). The passkey's device type
   * is left in the scratch for the session's `amr`.
   */
  async function verifyPasskey(
    userId: string,
    challenge: string,
    scratch: Partial<SignInScratch>,
  ): Promise<{ passed: boolean; reason?: string }> {
    if (!input.passkey) return { passed: false, reason: 'no passkey may answer this sign-in' }
    const result = await input.passkey.verify({ userId, challenge, data: input.answer?.data })
    if (!result.ok) return { passed: false, reason: result.reason }
    scratch.passkeyDeviceType = result.deviceType
    return { passed: true }
  }

  async function verifyAnswer(
    factor: SecondFactorKind | undefined,
    userId: string,
    challenge: string,
    scratch: Partial<SignInScratch>,
  ) {
    const code = input.answer?.code
    if (factor === 'webauthn') return verifyPasskey(userId, challenge, scratch)
    if (factor === undefined || typeof code !== 'string') return { passed: false }
    return { passed: factor === 'otp' ? await verifyOtp(userId, code) : await verifyRecovery(userId, code) }
  }

  return {
    checkSecondFactor({ providerId, user }: { providerId: string; user: FlowUser }, scratch: Partial<SignInScratch>) {
      const { user: fullUser = null, account = null, passkeyVerified } = scratch
      // The method's own user (the stored one) comes first: an OAuth machine's copy may still be the profile's id.
      const userId = typeof fullUser?.id === 'string' && fullUser.id !== '' ? fullUser.id : user.id
      const check = async () => {
        const factors = userId && input.factors ? await input.factors.listFactorsByUserId(userId) : []
        const enrolled = factors.some((factor) => factor.type === 'totp')
        // Facts and the app's setting: whether the passkey stands in for the second factor is the machine's guard.
        const passkey = {
          passkeyUserVerified: passkeyVerified === true,
          passkeyCountsAsTwo: settings.passkeyCountsAsTwo,
        }
        if (!enrolled || !userId)
          return {
            type: 'SECOND_FACTOR_CHECKED' as const,
            enrolled: false,
            mustEnrol: await mustEnrol(fullUser, account),
            ...passkey,
          }
        return {
          type: 'SECOND_FACTOR_CHECKED' as const,
          enrolled: true,
          mustEnrol: false,
          ...passkey,
          userId,
          challenge: randomToken(16),
          expiresAt: env.now + settings.challengeSeconds,
          account: flowAccountOf(account, providerId, userId),
        }
      }
      return check().catch((err: unknown) => {
        factorReadError('check', err)
        return { type: 'FACTOR_CHECK_FAILED' } as const
      })
    },

    async reserveFactorAttempt(
      { userId, challenge }: { userId: string; challenge: string },
      scratch: Partial<SignInScratch>,
    ) {
      const { store } = settings
      try {
        // The challenge's count and its "passed" mark are read in one step where the store can (reserve): a
        // challenge replayed after it was passed finds the mark and is refused before any code is looked at.
        const challengeKey = keyOf('challenge', challenge)
        const passedKey = keyOf('passed', challenge)
        const reserved = store.reserve
          ? await store.reserve(passedKey, challengeKey, settings.challengeSeconds, env.now)
          : (await store.peek(passedKey, env.now)).count > 0
            ? { lockedSeconds: 1, attempts: 0 }
            : { lockedSeconds: 0, attempts: await store.hit(challengeKey, settings.challengeSeconds, env.now) }
        const attempts = reserved.lockedSeconds > 0 ? spentAttempts : reserved.attempts
        const accountAttempts = await store.hit(keyOf('account', userId), settings.windowSeconds, env.now)
        const answer = {
          type: 'FACTOR_ATTEMPT_RESERVED',
          attempts,
          accountAttempts,
          accountLimit: settings.maxAttemptsPerAccount,
        } as const
        scratch.lastFactorAttempt = isLastFactorAttempt({ event: answer })
        return answer
      } catch (err) {
        storeError('attempt counter', err)
        return { type: 'FACTOR_ATTEMPT_RESERVE_FAILED' as const }
      }
    },

    async verifySecondFactor(
      { providerId, userId, challenge }: { providerId: string; userId: string; challenge: string },
      scratch: Partial<SignInScratch>,
    ) {
      const factor = kindOf(input.answer?.factor)
      let verdict: { passed: boolean; reason?: string }
      try {
        verdict = await verifyAnswer(factor, userId, challenge, scratch)
      } catch (err) {
        factorReadError('verification', err)
        return { type: 'FACTOR_VERIFY_FAILED' as const }
      }
      const reported = factor ?? 'otp'
      const { passed, reason: why } = verdict
      if (!passed) {
        if (scratch.lastFactorAttempt !== true)
          logRefusal(logger, 'second-factor-code', {
            provider: providerId,
            reason: why ? `wrong ${reported} answer: ${why}` : `wrong ${reported} answer`,
          })
        await emitAppEvent(env, 'secondFactor', { userId, success: false, factor: reported })
        return { type: 'FACTOR_REJECTED' as const }
      }
      try {
        // Passed: the challenge is marked so a replay of its snapshot is refused, and the account's count starts again.
        const { store } = settings
        if (store.lock) await store.lock(keyOf('passed', challenge), settings.challengeSeconds, env.now)
        else await store.hit(keyOf('passed', challenge), settings.challengeSeconds, env.now)
        await store.clear(keyOf('account', userId))
      } catch (err) {
        // The answer was right and is spent (a TOTP step, a recovery code): the sign-in goes on.
        storeError('attempt counter', err)
      }
      await emitAppEvent(env, 'secondFactor', { userId, success: true, factor: reported })
      return { type: 'FACTOR_VERIFIED' as const, factor: reported }
    },
  }
}
