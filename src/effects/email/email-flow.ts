/**
 * Handlers of the e-mail machine's commands. They do the I/O (adapter, mailer, counters, app callbacks) and report
 * facts; the machine decides. The token exists in the clear only here, between being created and being mailed, and
 * when it comes back in a link: it never enters the machine's context, a log line or a command's params.
 */
import type { WrappedAdapter } from '../../types/adapters.js'
import type { AdapterUser } from '../../types/adapters.js'
import { AdapterError, EmailSignInError, Verification } from '../../errors.js'
import type { EmailCommand, emailContract, EmailEvent } from '../../../machines/email.js'
import type { HandlersFor } from '../../../machines/contract.js'
import { requestCountKey } from './request-count-key.js'
import type { RequestCounter } from '../../providers-internal/email-request-limits.js'
import type { EmailConfig } from '../../types/providers.js'
import { randomId } from '../../security/random.js'
import type { Account, User } from '../../types/index.js'
import { emitAppEvent } from '../shared/app-events.js'
import type { EffectEnv } from '../shared/effect-env.js'
import { secondFactorHandlers, type SecondFactorInput } from '../shared/second-factor.js'
import { fromScratch } from '../shared/from-scratch.js'
import type { SignInScratch } from '../shared/sign-in-scratch.js'
import type { SessionIssuer } from '../session/issue-jwt-session.js'
import { runRedirectCallback } from '../shared/redirect-callback.js'
import { runSignInCallback } from '../shared/sign-in-callback.js'
import { normalizeEmailAddress } from './normalize-identifier.js'
import { hashVerificationToken, newVerificationToken, verificationTokenMaxAge } from './verification-token.js'
import type { UnprovenPasskeyCheck } from '../webauthn/unproven-passkey-account.js'

/**
 * What an e-mail request's handlers hand each other in the run's scratch, besides the sign-in's user and account
 * (`SignInScratch`: the adapter's record, or the one about to be created). The token in the clear exists only here,
 * between being created and being mailed: the snapshot, the log and the params never see it. Its expiry goes with it.
 */
export interface EmailScratch extends SignInScratch {
  token: string
  expires: Date
}

/** The e-mail machine's handlers, as its contract types them. */
export type EmailHandlers = HandlersFor<EmailCommand, EmailEvent, typeof emailContract, EmailScratch>

export interface EmailFlowInput {
  provider: EmailConfig
  adapter: WrappedAdapter
  /** The provider's `secret`, else the first configured secret. */
  secret: string
  /** The posted address (request half). */
  postedIdentifier?: unknown
  /** The token and address the followed link carries (link half). */
  linkToken?: string
  linkIdentifier?: string
  /** `<origin><basePath>/callback/<providerId>`: the link's base. */
  callbackBase: string
  counter: RequestCounter
  windowSeconds: number
  /** Who the client is, when known. */
  clientKey?: string
  issueSession: SessionIssuer
  secondFactor: SecondFactorInput
  /** The user of the session this browser already has, if any (link half). */
  signedInUserId?: () => Promise<string | null>
  /** Tells a user found by address that may not be adopted through it (link half). */
  isUnprovenPasskeyAccount?: UnprovenPasskeyCheck
}

type FlowUser = { id?: string; name?: string | null; email?: string | null; image?: string | null }

/** What saving the verified user answers, whichever way the machine chose. */
type SaveAnswer = Extract<EmailEvent, { type: 'USER_SAVED' | 'USER_SAVE_FAILED' }>

function flowUser(user: User | AdapterUser): FlowUser {
  const picked: FlowUser = {}
  if (typeof user.id === 'string') picked.id = user.id
  if (typeof user.name === 'string') picked.name = user.name.slice(0, 256)
  if (typeof user.email === 'string') picked.email = user.email.slice(0, 320)
  if (typeof user.image === 'string') picked.image = user.image.slice(0, 1024)
  return picked
}

/** Builds the handlers for one request of an e-mail sign-in. */
export function emailFlowEffects(env: EffectEnv, input: EmailFlowInput) {
  const { config } = env
  const { provider, adapter } = input

  const account = (identifier: string, userId: string | undefined): Account => ({
    providerAccountId: identifier,
    userId,
    type: 'email',
    provider: provider.id,
  })

  /**
   * Saves the verified user. An adapter outage is rethrown: it answers 503, whose page says the sign-in cannot be
   * finished and links to the sign-in page (the token is spent); the adapter wrapper has logged it. What remains is an
   * adapter that refused with an AuthError (logged by the wrapper too).
   */
  async function saveUser(save: () => Promise<User | AdapterUser>): Promise<SaveAnswer> {
    try {
      return { type: 'USER_SAVED', user: flowUser(await save()) }
    } catch (err) {
      if (err instanceof AdapterError) throw err
      return { type: 'USER_SAVE_FAILED' }
    }
  }

  /** Keeps the user as the adapter has it (or the one that will be created), and its account, for the later steps. */
  const keep = <U extends User | AdapterUser>(scratch: Partial<EmailScratch>, user: U): U => {
    scratch.user = user
    scratch.account = account(user.email ?? '', user.id ?? undefined)
    return user
  }

  return {
    ...secondFactorHandlers(env, input.secondFactor),
    runRedirectCallback: (params) => runRedirectCallback(env, params),

    async normalizeIdentifier() {
      const posted = input.postedIdentifier
      if (typeof posted !== 'string' || posted === '' || posted.length > 1024) return { type: 'IDENTIFIER_REJECTED' }
      if (!provider.normalizeIdentifier)
        return { type: 'IDENTIFIER_NORMALISED', identifier: normalizeEmailAddress(posted), customRule: false }
      try {
        const identifier = provider.normalizeIdentifier(posted)
        return typeof identifier === 'string'
          ? { type: 'IDENTIFIER_NORMALISED', identifier, customRule: true }
          : { type: 'IDENTIFIER_REJECTED' }
      } catch (err) {
        config.logger.error(
          new EmailSignInError('normalizeIdentifier threw', {
            err: err instanceof Error ? err : undefined,
            provider: provider.id,
          }),
        )
        return { type: 'IDENTIFIER_REJECTED' }
      }
    },

    async countSignInRequest({ identifier, scope }) {
      try {
        // Unknown client (no peer address): nothing to count per client, and the address counts are its own.
        if (scope === 'client' && input.clientKey === undefined) return { type: 'REQUESTS_COUNTED', count: 0 }
        const key = requestCountKey(scope, identifier, input.clientKey)
        return { type: 'REQUESTS_COUNTED', count: await input.counter.hit(key, input.windowSeconds, env.now) }
      } catch (err) {
        config.logger.error(
          new EmailSignInError('the request counter failed', {
            err: err instanceof Error ? err : undefined,
            provider: provider.id,
          }),
        )
        return { type: 'REQUEST_COUNT_FAILED' }
      }
    },

    async runSignInCallback({ user: asked, verificationRequest }, scratch) {
      const identifier = asked.email ?? ''
      if (verificationRequest) {
        const known = await adapter.getUserByEmail(identifier).catch(() => null)
        const user = keep(scratch, known ?? { id: randomId(), email: identifier, emailVerified: null })
        return runSignInCallback(
          env,
          { user, account: account(identifier, user.id), email: { verificationRequest: true } },
          provider.id,
        )
      }
      const current = scratch.user ?? { id: randomId(), email: identifier, emailVerified: null }
      return runSignInCallback(env, { user: current, account: account(identifier, current.id) }, provider.id)
    },

    async storeVerificationToken({ identifier }, scratch) {
      try {
        const token = provider.generateVerificationToken
          ? await provider.generateVerificationToken()
          : newVerificationToken()
        if (typeof token !== 'string' || token === '')
          throw new TypeError('generateVerificationToken returned no token')
        const expires = new Date((env.now + verificationTokenMaxAge(provider)) * 1000)
        await adapter.createVerificationToken({
          identifier,
          token: hashVerificationToken(token, input.secret),
          expires,
        })
        scratch.token = token
        scratch.expires = expires
        return { type: 'TOKEN_STORED' }
      } catch (err) {
        // A database that failed or did not answer is an outage, not a failed e-mail: the request answers 503 "try
        // again" as every other step does (the adapter wrapper has logged it, once).
        if (err instanceof AdapterError) throw err
        config.logger.error(
          new EmailSignInError('the verification token could not be stored', {
            err: err instanceof Error ? err : undefined,
            provider: provider.id,
          }),
        )
        return { type: 'TOKEN_STORE_FAILED' }
      }
    },

    async sendVerificationRequest({ identifier, callbackUrl }, scratch) {
      const token = fromScratch(scratch.token, 'the verification token')
      const expires = fromScratch(scratch.expires, 'the verification token’s expiry')
      const url = `${input.callbackBase}?${new URLSearchParams({ callbackUrl: callbackUrl || env.baseUrl, token, email: identifier })}`
      try {
        await provider.sendVerificationRequest({
          identifier,
          url,
          expires,
          provider,
          token,
          theme: config.theme,
          request: env.request,
        })
        return { type: 'MAIL_SENT' }
      } catch (err) {
        // The cause is logged (SMTP refusal, vendor status); the link and token are not.
        config.logger.error(
          new EmailSignInError('the sign-in message could not be sent', {
            err: err instanceof Error ? err : undefined,
            provider: provider.id,
          }),
        )
        return { type: 'MAIL_FAILED' }
      }
    },

    async consumeVerificationToken() {
      const presented = input.linkToken
      if (!presented) return { type: 'TOKEN_NOT_FOUND' }
      try {
        // Adapters match address and hash together, so another address's token is neither found nor deleted; the
        // machine compares the addresses again for adapters that match on the hash alone.
        const found = await adapter.useVerificationToken({
          identifier: input.linkIdentifier ?? '',
          token: hashVerificationToken(presented, input.secret),
        })
        if (!found) return { type: 'TOKEN_NOT_FOUND' }
        return {
          type: 'TOKEN_CONSUMED',
          identifier: found.identifier,
          expiresAt: Math.floor(new Date(found.expires).getTime() / 1000),
        }
      } catch (err) {
        // A database that failed or did not answer: 503 "try again", as every step that needs it answers (the adapter
        // wrapper has logged it, once). Anything else is a link that cannot be checked.
        if (err instanceof AdapterError) throw err
        config.logger.error(
          new Verification('the verification token could not be read', {
            err: err instanceof Error ? err : undefined,
            provider: provider.id,
          }),
        )
        return { type: 'TOKEN_LOOKUP_FAILED' }
      }
    },

    async findUser({ identifier }, scratch) {
      try {
        const found = await adapter.getUserByEmail(identifier)
        if (!found) return { type: 'USER_NOT_FOUND' }
        keep(scratch, found)
        // The facts the machine decides on (machines/email.ts): a passkey account nobody proved this address for,
        // and who is signed in here.
        if (input.isUnprovenPasskeyAccount && (await input.isUnprovenPasskeyAccount(found))) {
          const current = input.signedInUserId ? await input.signedInUserId() : null
          return current
            ? { type: 'USER_FOUND', user: flowUser(found), unprovenPasskeyAccount: true, signedInUserId: current }
            : { type: 'USER_FOUND', user: flowUser(found), unprovenPasskeyAccount: true }
        }
        return { type: 'USER_FOUND', user: flowUser(found) }
      } catch (err) {
        // Logged by the adapter wrapper. An outage answers 503 like every step that needs the database.
        if (err instanceof AdapterError) throw err
        return { type: 'USER_LOOKUP_FAILED' }
      }
    },

    // The machine decided whether this is a sign-up (machines/email.ts): a user findUser found has its address marked
    // verified, else the user is created.
    createVerifiedUser: ({ identifier }, scratch) =>
      saveUser(async () => {
        const user = keep(
          scratch,
          await adapter.createUser({ id: randomId(), email: identifier, emailVerified: new Date(env.now * 1000) }),
        )
        await emitAppEvent(env, 'createUser', { user })
        return user
      }),

    markEmailVerified: ({ userId }, scratch) =>
      saveUser(async () => {
        const user = keep(scratch, await adapter.updateUser({ id: userId, emailVerified: new Date(env.now * 1000) }))
        await emitAppEvent(env, 'updateUser', { user })
        return user
      }),

    // The machine says whether this is a sign-up; the full user record stays in the scratch.
    issueSession: ({ user: picked, isNewUser, enrolmentPending }, scratch) => {
      const subject = scratch.user ?? picked
      const identifier = subject.email ?? ''
      return input.issueSession(
        env,
        { user: subject, account: account(identifier, subject.id ?? undefined), isNewUser, enrolmentPending },
        scratch,
      )
    },

    async emitSignInEvent({ isNewUser }, scratch) {
      const subject = fromScratch(scratch.user, 'the signed-in user')
      await emitAppEvent(env, 'signIn', {
        user: subject,
        account: account(subject.email ?? '', subject.id ?? undefined),
        isNewUser,
      })
      return { type: 'SIGNIN_ANNOUNCED' }
    },
  } satisfies EmailHandlers
}
