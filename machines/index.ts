/**
 * The registry of machines: the runtime, the diagrams and the path tests all read these entries.
 * @module machines
 */
import { credentialsMachine, type CredentialsEvent } from './credentials.js'
import type { MachineEntry } from './machine-entry.js'
import { oauthMachine, type OAuthEvent } from './oauth.js'
import { sessionMachine, type SessionEvent } from './session.js'

export { credentialsMachine } from './credentials.js'
export { sessionMachine } from './session.js'
export { oauthMachine } from './oauth.js'
export type { MachineEntry } from './machine-entry.js'
export { machineConventions } from './machine-entry.js'

const now = 1_700_000_000
const sampleUser = { id: 'u1', name: 'Ada', email: 'ada@example.com' }

const credentialsPathEvents: CredentialsEvent[] = [
  { type: 'CREDENTIALS_SUBMITTED', providerId: 'credentials', callbackUrl: '/dashboard', csrfVerified: true, now },
  { type: 'CREDENTIALS_SUBMITTED', providerId: 'credentials', callbackUrl: '/dashboard', csrfVerified: false, now },
  { type: 'REDIRECT_RESOLVED', url: 'http://localhost:3000/dashboard' },
  { type: 'REDIRECT_FAILED' },
  { type: 'AUTHORIZED', user: sampleUser },
  { type: 'AUTHORIZE_REJECTED', code: 'credentials' },
  { type: 'AUTHORIZE_FAILED' },
  { type: 'SIGNIN_ALLOWED' },
  { type: 'SIGNIN_DENIED' },
  { type: 'SIGNIN_FAILED' },
  { type: 'SIGNIN_REDIRECTED', url: '/welcome' },
  { type: 'SESSION_ISSUED' },
  { type: 'SESSION_FAILED', error: 'JWTSessionError' },
  { type: 'SIGNIN_ANNOUNCED' },
]

const sessionPathEvents: SessionEvent[] = [
  { type: 'SESSION_REQUESTED', now },
  { type: 'SESSION_UPDATE_REQUESTED', csrfVerified: true, now },
  { type: 'SESSION_UPDATE_REQUESTED', csrfVerified: false, now },
  { type: 'SIGNOUT_REQUESTED', csrfVerified: true, callbackUrl: '/', now },
  { type: 'SIGNOUT_REQUESTED', csrfVerified: false, callbackUrl: '/', now },
  { type: 'SESSION_FOUND' },
  { type: 'SESSION_NOT_FOUND' },
  { type: 'SESSION_INVALID' },
  { type: 'SESSION_REFRESHED' },
  { type: 'SESSION_REVOKED' },
  { type: 'SESSION_REFRESH_FAILED', error: 'JWTSessionError' },
  { type: 'SESSION_RESOLVED' },
  { type: 'SESSION_CALLBACK_FAILED' },
  { type: 'SESSION_ANNOUNCED' },
  { type: 'SESSION_CLEARED' },
  { type: 'REDIRECT_RESOLVED', url: 'http://localhost:3000/' },
  { type: 'REDIRECT_FAILED' },
  { type: 'SESSION_ENDED' },
  { type: 'SIGNOUT_FAILED' },
]

const oauthPathEvents: OAuthEvent[] = [
  { type: 'SIGNIN_STARTED', providerId: 'idp', callbackUrl: '/dashboard', csrfVerified: true, now, expiresAt: now + 600, state: 'st4te', nonce: 'n0nce', codeVerifier: 'v3rifier' },
  { type: 'SIGNIN_STARTED', providerId: 'idp', callbackUrl: '/dashboard', csrfVerified: false, now, expiresAt: now + 600 },
  { type: 'REDIRECT_RESOLVED', url: 'http://localhost:3000/dashboard' },
  { type: 'REDIRECT_FAILED' },
  { type: 'AUTHORIZATION_URL_BUILT' },
  { type: 'AUTHORIZATION_URL_FAILED' },
  { type: 'CALLBACK_RECEIVED', providerId: 'idp', state: 'st4te', now: now + 30 },
  { type: 'CALLBACK_RECEIVED', providerId: 'idp', state: 'forged', now: now + 30 },
  { type: 'CALLBACK_RECEIVED', providerId: 'other', state: 'st4te', now: now + 30 },
  { type: 'CALLBACK_RECEIVED', providerId: 'idp', state: 'st4te', now: now + 601 },
  { type: 'CALLBACK_VALIDATED', user: sampleUser },
  { type: 'PROVIDER_DENIED' },
  { type: 'AUTHORIZATION_RESPONSE_REJECTED' },
  { type: 'PKCE_FAILED' },
  { type: 'TOKEN_REQUEST_FAILED' },
  { type: 'ID_TOKEN_REJECTED' },
  { type: 'NONCE_MISMATCHED' },
  { type: 'USERINFO_FAILED' },
  { type: 'PROFILE_REJECTED' },
  { type: 'SIGNIN_ALLOWED' },
  { type: 'SIGNIN_DENIED' },
  { type: 'SIGNIN_FAILED' },
  { type: 'SIGNIN_REDIRECTED', url: '/welcome' },
  { type: 'ACCOUNT_FOUND' },
  { type: 'USER_NOT_FOUND' },
  { type: 'LINK_REQUIRED' },
  { type: 'EMAIL_TAKEN' },
  { type: 'USER_LOOKUP_FAILED' },
  { type: 'USER_CREATED' },
  { type: 'USER_CREATE_FAILED' },
  { type: 'ACCOUNT_LINKED' },
  { type: 'ACCOUNT_LINK_FAILED' },
  { type: 'SESSION_ISSUED' },
  { type: 'SESSION_FAILED', error: 'JWTSessionError' },
  { type: 'SIGNIN_ANNOUNCED' },
]

export const oauthEntry: MachineEntry<typeof oauthMachine> = {
  id: 'oauth',
  version: 1,
  machine: oauthMachine,
  extensionPoints: ['allowSignIn', 'allowUserCreation', 'allowAccountLinking'],
  pathEvents: oauthPathEvents,
}

export const credentialsEntry: MachineEntry<typeof credentialsMachine> = {
  id: 'credentials',
  version: 1,
  machine: credentialsMachine,
  extensionPoints: ['allowSignIn'],
  pathEvents: credentialsPathEvents,
}

export const sessionEntry: MachineEntry<typeof sessionMachine> = {
  id: 'session',
  version: 1,
  machine: sessionMachine,
  extensionPoints: [],
  pathEvents: sessionPathEvents,
}

/** Every built-in machine by id. */
export const machineRegistry: Record<string, MachineEntry> = {
  credentials: credentialsEntry,
  oauth: oauthEntry,
  session: sessionEntry,
}
