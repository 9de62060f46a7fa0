/**
 * The logout stores of back-channel logout (`backchannelLogout.store` in the config): in memory for one instance,
 * in Redis for several. See docs/logout.md.
 * @module flow/stores/logout
 */
export { MemoryLogoutStore } from './logout-memory.js'
export { RedisLogoutStore } from './logout-redis.js'
export type { BackchannelLogoutOptions, LogoutStore } from '../../types/logout-store.js'
