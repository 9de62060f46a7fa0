/**
 * The logout stores of back-channel logout (`backchannelLogout.store` in the config) and the session stores of session
 * management (`sessionManagement.store`): in memory for one instance,
 * in Redis for several. See docs/logout.md.
 * @module flow/stores/logout
 */
export { MemoryLogoutStore } from './logout-memory.js'
export { RedisLogoutStore } from './logout-redis.js'
export type { BackchannelLogoutOptions, LogoutStore } from '../../types/logout-store.js'
export { MemorySessionStore } from './session-memory.js'
export { RedisSessionStore } from './session-redis.js'
export type { SessionManagementOptions, SessionRecord, SessionStore } from '../../types/session-store.js'
