/**
 * The registry of machines: the runtime, the diagrams and the path tests all read these entries.
 * @module machines
 */
import { credentialsMachine, type CredentialsEvent } from './credentials.js'
import type { MachineEntry } from './machine-entry.js'
import { sessionMachine, type SessionEvent } from './session.js'

export { credentialsMachine } from './credentials.js'
export { sessionMachine } from './session.js'
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
  session: sessionEntry,
}
