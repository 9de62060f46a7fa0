/**
 * The registry of machines: the runtime, the diagrams and the path tests all read these entries.
 * @module machines
 */
import { backchannelLogoutMachine } from './backchannel-logout.js'
import { credentialsMachine } from './credentials.js'
import { emailMachine } from './email.js'
import type { MachineEntry } from './machine-entry.js'
import { oauthMachine } from './oauth.js'
import { sessionMachine } from './session.js'
import { tokenRefreshMachine } from './token-refresh.js'
import { webAuthnMachine } from './webauthn.js'

export { backchannelLogoutMachine } from './backchannel-logout.js'
export { credentialsMachine } from './credentials.js'
export { emailMachine } from './email.js'
export { sessionMachine } from './session.js'
export { oauthMachine } from './oauth.js'
export { tokenRefreshMachine } from './token-refresh.js'
export { webAuthnMachine } from './webauthn.js'
export type { MachineEntry } from './machine-entry.js'
export type { CommandContract, CommandsOf, HandlersFor } from './contract.js'
export { machineConventions } from './machine-entry.js'

export const oauthEntry: MachineEntry<typeof oauthMachine> = {
  id: 'oauth',
  version: 8,
  machine: oauthMachine,
  extensionPoints: ['allowSignIn', 'allowUserCreation', 'allowAccountLinking'],
}

export const credentialsEntry: MachineEntry<typeof credentialsMachine> = {
  id: 'credentials',
  version: 6,
  machine: credentialsMachine,
  extensionPoints: ['allowSignIn'],
}

export const emailEntry: MachineEntry<typeof emailMachine> = {
  id: 'email',
  version: 6,
  machine: emailMachine,
  extensionPoints: ['allowSignIn', 'allowUserCreation'],
}

export const sessionEntry: MachineEntry<typeof sessionMachine> = {
  id: 'session',
  version: 5,
  machine: sessionMachine,
  extensionPoints: [],
}

export const webAuthnEntry: MachineEntry<typeof webAuthnMachine> = {
  id: 'webauthn',
  version: 6,
  machine: webAuthnMachine,
  extensionPoints: ['allowSignIn'],
}

export const tokenRefreshEntry: MachineEntry<typeof tokenRefreshMachine> = {
  id: 'tokenRefresh',
  version: 2,
  machine: tokenRefreshMachine,
  extensionPoints: [],
}

export const backchannelLogoutEntry: MachineEntry<typeof backchannelLogoutMachine> = {
  id: 'backchannelLogout',
  version: 1,
  machine: backchannelLogoutMachine,
  extensionPoints: [],
}

/**
 * The built-in machines by id, each with its own machine type: what a run returns (its output) is typed per machine.
 * Indexed by any other id, a registry answers an entry of any machine.
 */
export interface MachineRegistry extends Readonly<Record<string, MachineEntry>> {
  readonly backchannelLogout: typeof backchannelLogoutEntry
  readonly credentials: typeof credentialsEntry
  readonly email: typeof emailEntry
  readonly oauth: typeof oauthEntry
  readonly session: typeof sessionEntry
  readonly tokenRefresh: typeof tokenRefreshEntry
  readonly webauthn: typeof webAuthnEntry
}

/** The machines that sign a user in: each composes the completion and can stop at its second-factor challenge. */
export type SignInMachineId = 'credentials' | 'email' | 'oauth' | 'webauthn'

/** Every built-in machine by id. */
export const machineRegistry: MachineRegistry = {
  backchannelLogout: backchannelLogoutEntry,
  credentials: credentialsEntry,
  email: emailEntry,
  oauth: oauthEntry,
  session: sessionEntry,
  tokenRefresh: tokenRefreshEntry,
  webauthn: webAuthnEntry,
}
