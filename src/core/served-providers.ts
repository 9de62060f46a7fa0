/**
 * The provider kinds some flow serves. Configuration refuses any other (rather than failing at sign-in), and the
 * dispatch table in actions/provider-actions.ts has exactly one entry per kind listed here: its type holds the two
 * equal. Kept apart from that table so that the configuration does not import the actions, which import it back.
 */
import type { MergedProvider } from './provider-setup.js'

export const servedKinds = [
  'credentials',
  'oauth',
  'email',
  'webauthn',
] as const satisfies readonly MergedProvider['kind'][]

export type ServedKind = (typeof servedKinds)[number]

export const servedProviderKinds: ReadonlySet<string> = new Set(servedKinds)
