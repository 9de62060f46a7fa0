/**
 * Resolving the user behind an OAuth sign-in with an adapter. These handlers find facts; the account-linking rules
 * are the OAuth machine's guarded edges (machines/oauth.ts, state `resolvingUser`):
 * - the provider account is known → ACCOUNT_FOUND, with its owner and the user signed in here, if any;
 * - someone is signed in here → SIGNED_IN_USER_FOUND;
 * - the e-mail belongs to an existing user → EMAIL_MATCHED;
 * - otherwise → USER_NOT_FOUND.
 * Creating a user and linking its account belong together: if the link fails, the new user is removed again.
 *
 * Two first sign-ins of one new account can race (two tabs, a double click, two servers): one creates the user and
 * links the account, the other finds the address taken or the account linked. The machine then resolves the user once
 * more (state `waitingForAccountLink`); `awaitAccountLink` first gives the winner a moment to link the account, since
 * between its two writes the user exists without it.
 */
import type { WrappedAdapter } from '../../types/adapters.js'
import type { AdapterAccount, AdapterUser } from '../../types/adapters.js'
import { randomId } from '../../security/random.js'
import type { Account, User } from '../../types/index.js'
import { emitAppEvent } from '../shared/app-events.js'
import type { EffectEnv } from '../shared/effect-env.js'
import type { SignInSubject } from '../session/issue-jwt-session.js'
import type { UnprovenPasskeyCheck } from '../webauthn/unproven-passkey-account.js'
import type { UserResolution } from './oauth-flow.js'

/**
 * The pauses between looks for a racing sign-in's account link, in ms: about a second in all, longer than two
 * writes take on a healthy database, short enough that a refusal is not held up noticeably.
 */
const accountLinkPollsMs = [25, 50, 100, 150, 200, 225, 250]

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function adapterAccount(account: Account, userId: string): AdapterAccount {
  return { ...account, userId, type: account.type === 'oidc' ? 'oidc' : 'oauth' }
}

/**
 * User resolution over the adapter; `signedInUserId` is the user of the session this browser already has, if any;
 * `isUnprovenPasskeyAccount` tells a user found by address that may not be adopted through it.
 */
export function adapterUserResolution(
  env: EffectEnv,
  adapter: WrappedAdapter,
  signedInUserId: () => Promise<string | null>,
  isUnprovenPasskeyAccount: UnprovenPasskeyCheck = async () => false,
) {
  // Its answers are what its steps return (`satisfies`), which test/flow/contract-types.test.ts checks.
  return {
    async resolveUser(subject: SignInSubject) {
      const account = subject.account as Account
      const byAccount = await adapter.getUserByAccount({
        provider: account.provider,
        providerAccountId: account.providerAccountId,
      })
      const current = await signedInUserId()
      if (byAccount) {
        subject.user = byAccount
        return current
          ? { type: 'ACCOUNT_FOUND', ownerId: byAccount.id, signedInUserId: current }
          : { type: 'ACCOUNT_FOUND', ownerId: byAccount.id }
      }
      if (current) {
        const signedIn = await adapter.getUser(current)
        if (signedIn) {
          subject.user = signedIn
          return { type: 'SIGNED_IN_USER_FOUND' }
        }
      }
      const email = subject.user.email
      const byEmail = email ? await adapter.getUserByEmail(email) : null
      if (byEmail) {
        if (await isUnprovenPasskeyAccount(byEmail)) return { type: 'EMAIL_MATCHED', unprovenPasskeyAccount: true }
        subject.user = byEmail
        return { type: 'EMAIL_MATCHED' }
      }
      return { type: 'USER_NOT_FOUND' }
    },

    async createUser(subject: SignInSubject) {
      const account = subject.account as Account
      const profileUser = subject.user
      let created: AdapterUser | null = null
      try {
        const { id: _profileId, email, ...fields } = profileUser as User & Record<string, unknown>
        // A profile without an address gives a user without one (NULL in SQL), as Auth.js does: '' would be stored
        // as an address, and the unique e-mail index would refuse the next user who has none.
        created = await adapter.createUser({
          ...fields,
          ...(email ? { email } : {}),
          id: randomId(),
          emailVerified: null,
        } as AdapterUser)
        await adapter.linkAccount(adapterAccount(account, created.id))
      } catch {
        // Already logged by the adapter wrapper. Undo a half-made user so a retry starts clean.
        if (created) await adapter.deleteUser(created.id).catch(() => undefined)
        return { type: 'USER_CREATE_FAILED' }
      }
      subject.user = created
      await emitAppEvent(env, 'createUser', { user: created })
      await emitAppEvent(env, 'linkAccount', { user: created, account, profile: profileUser })
      return { type: 'USER_CREATED' }
    },

    async linkAccount(subject: SignInSubject) {
      const account = subject.account as Account
      const user = subject.user as AdapterUser
      try {
        await adapter.linkAccount(adapterAccount(account, user.id))
      } catch {
        return { type: 'ACCOUNT_LINK_FAILED' }
      }
      await emitAppEvent(env, 'linkAccount', { user, account, profile: user })
      return { type: 'ACCOUNT_LINKED' }
    },

    async awaitAccountLink(subject: SignInSubject) {
      const account = subject.account as Account
      const key = { provider: account.provider, providerAccountId: account.providerAccountId }
      for (const ms of accountLinkPollsMs) {
        if (await adapter.getUserByAccount(key)) break
        await pause(ms)
      }
      return { type: 'ACCOUNT_LINK_AWAITED' }
    },
  } satisfies UserResolution
}
