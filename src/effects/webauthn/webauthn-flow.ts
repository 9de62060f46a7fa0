/**
 * Handlers of the WebAuthn machine's commands: the adapter's users and authenticators, `@simplewebauthn/server` for
 * building options and verifying responses, the app's callbacks. They report facts; the machine decides (the
 * counter check, for one, is a guard there, so the library is given a counter of 0 and never refuses on it).
 * Authenticators are stored as Auth.js stores them: credential id and public key as standard base64, transports
 * comma-separated, the account's `providerAccountId` equal to the credential id.
 */
import type { WebAuthnCommand, webAuthnContract, WebAuthnEvent, WebAuthnFlowUser } from '../../../machines/webauthn.js'
import type * as WebAuthnServer from '@simplewebauthn/server'
import type { HandlersFor } from '../../../machines/contract.js'
import type { Adapter, WrappedAdapter } from '../../types/adapters.js'
import type { AdapterAuthenticator, AdapterUser } from '../../types/adapters.js'
import { WebAuthnVerificationError } from '../../errors.js'
import type { RelyingParty, WebAuthnConfig, WebAuthnUserInfo } from '../../types/providers.js'
import { randomId } from '../../security/random.js'
import { emitAppEvent } from '../shared/app-events.js'
import type { EffectEnv } from '../shared/effect-env.js'
import { secondFactorHandlers, type SecondFactorInput } from '../shared/second-factor.js'
import { fromScratch } from '../shared/from-scratch.js'
import type { SignInScratch } from '../shared/sign-in-scratch.js'
import type { SessionIssuer } from '../session/issue-jwt-session.js'
import { passkeyFactors } from '../session/sign-in-authentication.js'
import { runRedirectCallback } from '../shared/redirect-callback.js'
import { runSignInCallback } from '../shared/sign-in-callback.js'
import type { SpentChallenges } from '../webauthn-challenges.js'
import { credentialIdToBase64, toBase64, transportsFromString, transportsToString } from '../webauthn-encoding.js'
import {
  authenticationOptions,
  postedCredential as postedCredentialOf,
  verifyAssertion,
  webAuthnLibrary,
  type PostedCredential,
} from './passkey-assertion.js'

/**
 * What a WebAuthn request's handlers hand each other in the run's scratch, besides the sign-in's user and account
 * (`SignInScratch`: the adapter's records). Neither belongs in the snapshot, which a sign-in stopped at a second
 * factor stores: the machine decides on the counter and the owner's id, never on key material or a whole record.
 */
export interface WebAuthnScratch extends SignInScratch {
  /** The registration the library verified (public key, counter, device type), kept for the step that saves it. */
  registration: {
    credentialID: string
    publicKey: string
    counter: number
    backedUp: boolean
    deviceType: string
    transports?: string
  }
  /** The stored authenticator the presented passkey names, as the adapter has it (its public key included). */
  stored: AdapterAuthenticator
  /**
   * The options built for the browser: the HTTP layer's answer to a flow that now waits for the passkey. Kept out of
   * the context, which the flow record stores and which needs none of them (the challenge is there already).
   */
  options: Record<string, unknown>
}

export type WebAuthnHandlers = HandlersFor<WebAuthnCommand, WebAuthnEvent, typeof webAuthnContract, WebAuthnScratch>

/** What one request's WebAuthn effects need besides the effect environment. */
export interface WebAuthnEffectInput {
  provider: WebAuthnConfig
  adapter: WrappedAdapter
  /** The app's own adapter, as `getUserInfo` receives it (Auth.js passes the unwrapped one). */
  appAdapter: Adapter | undefined
  relyingParty: RelyingParty
  /** The options request's query (form fields such as `email`). */
  query: URLSearchParams
  issueSession: SessionIssuer
  spent: SpentChallenges
  secondFactor: SecondFactorInput
}

type Library = typeof WebAuthnServer

function flowUser(user: {
  id?: string
  email?: string | null
  name?: string | null
  image?: string | null
}): WebAuthnFlowUser {
  const out: WebAuthnFlowUser = {}
  if (typeof user.id === 'string' && user.id !== '') out.id = user.id
  if (typeof user.email === 'string') out.email = user.email.slice(0, 256)
  if (typeof user.name === 'string') out.name = user.name.slice(0, 256)
  if (typeof user.image === 'string') out.image = user.image.slice(0, 1024)
  return out
}

/** The default `getUserInfo`: the `email` field of the form names a stored user, a new one, or nobody. */
async function defaultUserInfo(adapter: WrappedAdapter, query: URLSearchParams): Promise<WebAuthnUserInfo | null> {
  const email = query.get('email')?.trim().toLowerCase()
  if (!email) return null
  if (email.length > 320 || !/^[^\s@]+@[^\s@]+$/.test(email)) return null
  const stored = await adapter.getUserByEmail(email)
  return stored
    ? { user: { id: stored.id, email: stored.email, name: stored.name ?? null }, exists: true }
    : { user: { email }, exists: false }
}

/** The browser's PublicKeyCredential from the callback body's `data` field, if it looks like one. */
function postedCredential(env: EffectEnv): PostedCredential | undefined {
  return postedCredentialOf(env.body?.data)
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : 'verification threw'
}

/** Builds the handlers for one WebAuthn request (options or callback). */
export function webAuthnEffects(env: EffectEnv, input: WebAuthnEffectInput) {
  const { provider, adapter, relyingParty } = input
  const log = env.config.logger

  return {
    ...secondFactorHandlers(env, input.secondFactor),
    async lookUpUser({ signedInUserId }) {
      try {
        if (signedInUserId) {
          const found = await adapter.getUser(signedInUserId)
          return found ? { type: 'USER_INFO_FOUND', user: flowUser(found), exists: true } : { type: 'USER_INFO_FAILED' }
        }
        const appAdapter = input.appAdapter
        const info =
          provider.getUserInfo && appAdapter
            ? await provider.getUserInfo({ adapter: appAdapter, provider }, env.request)
            : await defaultUserInfo(adapter, input.query)
        if (!info || typeof info !== 'object' || !info.user) return { type: 'USER_INFO_NONE' }
        return { type: 'USER_INFO_FOUND', user: flowUser(info.user), exists: info.exists === true }
      } catch (error) {
        log.error(
          new WebAuthnVerificationError('looking up the user for WebAuthn options failed', {
            err: error instanceof Error ? error : undefined,
            provider: provider.id,
          }),
        )
        return { type: 'USER_INFO_FAILED' }
      }
    },

    async buildRegistrationOptions({ challenge, user: subject }, scratch) {
      try {
        const { generateRegistrationOptions } = await webAuthnLibrary()
        const held = subject.id ? await adapter.listAuthenticatorsByUserId(subject.id) : []
        scratch.options = {
          ...(await generateRegistrationOptions({
            ...provider.registrationOptions,
            rpName: relyingParty.name,
            rpID: relyingParty.id,
            userName: subject.email ?? subject.name ?? 'user',
            userDisplayName: subject.name ?? undefined,
            // A random handle: the stored authenticator, not this value, links a credential to its user.
            userID: new Uint8Array(Buffer.from(randomId().replace(/-/g, ''), 'hex')),
            challenge: new Uint8Array(Buffer.from(challenge, 'base64url')),
            excludeCredentials: held.map((a) => ({
              id: Buffer.from(a.credentialID, 'base64').toString('base64url'),
              transports: transportsFromString(a.transports),
            })),
          })),
        }
        return { type: 'OPTIONS_BUILT' }
      } catch (error) {
        log.error(
          new WebAuthnVerificationError('building WebAuthn registration options failed', {
            err: error instanceof Error ? error : undefined,
            provider: provider.id,
          }),
        )
        return { type: 'OPTIONS_FAILED' }
      }
    },

    async buildAuthenticationOptions({ challenge, userId }, scratch) {
      try {
        const held = userId ? await adapter.listAuthenticatorsByUserId(userId) : []
        scratch.options = await authenticationOptions({ provider, relyingParty, challenge, held })
        return { type: 'OPTIONS_BUILT' }
      } catch (error) {
        log.error(
          new WebAuthnVerificationError('building WebAuthn authentication options failed', {
            err: error instanceof Error ? error : undefined,
            provider: provider.id,
          }),
        )
        return { type: 'OPTIONS_FAILED' }
      }
    },

    runRedirectCallback: (params) => runRedirectCallback(env, params),

    claimChallenge({ challenge, expiresAt }) {
      return input.spent.claim(challenge, expiresAt, env.now)
        ? { type: 'CHALLENGE_CLAIMED' }
        : { type: 'CHALLENGE_SPENT' }
    },

    async verifyRegistration({ challenge }, scratch) {
      const response = postedCredential(env)
      if (!response) return { type: 'VERIFICATION_FAILED', reason: 'the body carries no registration response' }
      let info
      try {
        const { verifyRegistrationResponse } = await webAuthnLibrary()
        const verified = await verifyRegistrationResponse({
          ...provider.verifyRegistrationOptions,
          response: response as unknown as Parameters<Library['verifyRegistrationResponse']>[0]['response'],
          expectedChallenge: challenge,
          expectedOrigin: relyingParty.origin,
          expectedRPID: relyingParty.id,
        })
        if (!verified.verified) return { type: 'VERIFICATION_FAILED', reason: 'registration response not verified' }
        info = verified.registrationInfo
      } catch (error) {
        return { type: 'VERIFICATION_FAILED', reason: reason(error) }
      }
      const credentialID = credentialIdToBase64(info.credential.id)
      if (await adapter.getAuthenticator(credentialID)) return { type: 'CREDENTIAL_TAKEN' }
      scratch.registration = {
        credentialID,
        publicKey: toBase64(info.credential.publicKey),
        counter: info.credential.counter,
        backedUp: info.credentialBackedUp,
        deviceType: info.credentialDeviceType,
        transports: transportsToString(
          info.credential.transports ??
            (Array.isArray(response.response.transports)
              ? response.response.transports.filter((t): t is string => typeof t === 'string')
              : undefined),
        ),
      }
      return { type: 'REGISTRATION_VERIFIED' }
    },

    async findCredential(_params, scratch) {
      const response = postedCredential(env)
      if (!response) return { type: 'CREDENTIAL_UNKNOWN' }
      // Auth.js stores standard base64; the browser sends base64url. Both spell the same bytes.
      const found = await adapter.getAuthenticator(credentialIdToBase64(response.id))
      const owner = found ? await adapter.getUser(found.userId) : null
      if (!found || !owner) return { type: 'CREDENTIAL_UNKNOWN' }
      scratch.stored = found
      scratch.user = owner
      scratch.account = {
        type: 'webauthn',
        provider: provider.id,
        providerAccountId: found.providerAccountId,
        userId: owner.id,
      }
      return { type: 'CREDENTIAL_FOUND', storedCounter: Number(found.counter) || 0, user: flowUser(owner) }
    },

    async verifyAuthentication({ challenge }, scratch) {
      const response = postedCredential(env)
      const { stored } = scratch
      if (!response || !stored)
        return { type: 'VERIFICATION_FAILED', reason: 'the body carries no authentication response' }
      const verified = await verifyAssertion({ provider, relyingParty, stored, response, expectedChallenge: challenge })
      if (!verified.verified) return { type: 'VERIFICATION_FAILED', reason: verified.reason }
      scratch.passkeyVerified = verified.userVerified
      return { type: 'ASSERTION_VERIFIED', newCounter: verified.newCounter }
    },

    async updateCounter({ newCounter }, { stored }) {
      await adapter.updateAuthenticatorCounter(fromScratch(stored, 'the stored authenticator').credentialID, newCounter)
      return { type: 'COUNTER_UPDATED' }
    },

    // A registration asks about the user the options named and the new passkey's account (no id unless signed in);
    // an authentication about the stored owner of the passkey presented and its account.
    async runSignInCallback({ user: subject }, scratch) {
      if (scratch.registration) {
        scratch.user = {
          ...(subject.id ? { id: subject.id } : {}),
          email: subject.email ?? null,
          name: subject.name ?? null,
        }
        scratch.account = {
          type: 'webauthn',
          provider: provider.id,
          providerAccountId: scratch.registration.credentialID,
        }
      }
      return runSignInCallback(
        env,
        { user: fromScratch(scratch.user, 'the passkey’s user'), account: scratch.account ?? null },
        provider.id,
      )
    },

    // A fact for the machine, which refuses an address taken since the options were built.
    async lookUpAddress({ email }) {
      return { type: 'ADDRESS_CHECKED', taken: Boolean(await adapter.getUserByEmail(email)) }
    },

    async saveRegistration({ user: subject, signedInUserId }, scratch) {
      const fresh = scratch.registration
      if (!fresh) return { type: 'SAVE_FAILED' }
      let owner: AdapterUser | null
      let isNewUser = false
      if (signedInUserId) {
        owner = await adapter.getUser(signedInUserId)
      } else {
        // The machine looked the address up again before coming here (checkingAddress): it was still free.
        owner = await adapter.createUser({
          id: randomId(),
          email: subject.email ?? '',
          name: subject.name ?? null,
          emailVerified: null,
        })
        isNewUser = true
        await emitAppEvent(env, 'createUser', { user: owner })
      }
      if (!owner) return { type: 'SAVE_FAILED' }
      const linked = {
        type: 'webauthn' as const,
        provider: provider.id,
        providerAccountId: fresh.credentialID,
        userId: owner.id,
      }
      await adapter.linkAccount(linked)
      // As Auth.js: the account without its userId, and the user the request named as the profile.
      const { userId: _userId, ...linkedAccount } = linked
      await emitAppEvent(env, 'linkAccount', {
        user: owner,
        account: linkedAccount,
        profile: { email: subject.email ?? null, name: subject.name ?? null },
      })
      await adapter.createAuthenticator({
        credentialID: fresh.credentialID,
        userId: owner.id,
        providerAccountId: fresh.credentialID,
        counter: fresh.counter,
        credentialBackedUp: fresh.backedUp,
        credentialPublicKey: fresh.publicKey,
        credentialDeviceType: fresh.deviceType,
        transports: fresh.transports ?? null,
      })
      scratch.user = owner
      scratch.account = linked
      return { type: 'REGISTRATION_SAVED', user: flowUser(owner), isNewUser }
    },

    // The machine says whether this is a sign-up (it saw the registration create the user).
    // A synced passkey (`multiDevice`) is a software key in the session's `amr`, any other a hardware one.
    issueSession: ({ isNewUser, enrolmentPending }, scratch) =>
      input.issueSession(
        env,
        {
          user: fromScratch(scratch.user, 'the passkey’s user'),
          account: scratch.account ?? null,
          isNewUser,
          enrolmentPending,
          factors: passkeyFactors(scratch.stored?.credentialDeviceType ?? scratch.registration?.deviceType),
        },
        scratch,
      ),

    async emitSignInEvent({ isNewUser }, { user, account = null }) {
      await emitAppEvent(env, 'signIn', { user: fromScratch(user, 'the passkey’s user'), account, isNewUser })
      return { type: 'SIGNIN_ANNOUNCED' }
    },
  } satisfies WebAuthnHandlers
}
