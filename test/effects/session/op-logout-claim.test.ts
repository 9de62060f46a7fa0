/**
 * Which sessions a logout token reaches: the keys a session answers to against the keys a logout token ends, run
 * through a real in-memory logout store.
 */
import { describe, expect, it } from 'vitest'
import { MemoryLogoutStore } from '../../../src/flow/stores/logout.js'
import { logoutKeys, readOpLogoutClaim, sessionKeys } from '../../../src/effects/session/op-logout-claim.js'

async function reached(session: { sub: string; sid?: string }, token: { sub?: string; sid?: string }) {
  const store = new MemoryLogoutStore()
  await store.revoke(logoutKeys('idp', token.sub, token.sid), 2_000, 60)
  const at = await store.revokedAt(sessionKeys({ p: 'idp', ...session }))
  return at !== undefined && at >= 1_000
}

describe('back-channel logout reach', () => {
  it('a sub-only token ends every session of that OP account, and no other', async () => {
    expect(await reached({ sub: 'alice', sid: 's1' }, { sub: 'alice' })).toBe(true)
    expect(await reached({ sub: 'alice' }, { sub: 'alice' })).toBe(true)
    expect(await reached({ sub: 'bob', sid: 's1' }, { sub: 'alice' })).toBe(false)
  })

  it('a token with sid ends that OP session only, plus the sessions of its user that carry no sid', async () => {
    expect(await reached({ sub: 'alice', sid: 's1' }, { sub: 'alice', sid: 's1' })).toBe(true)
    expect(await reached({ sub: 'alice', sid: 's2' }, { sub: 'alice', sid: 's1' })).toBe(false)
    expect(await reached({ sub: 'alice' }, { sub: 'alice', sid: 's1' })).toBe(true)
    expect(await reached({ sub: 'bob' }, { sub: 'alice', sid: 's1' })).toBe(false)
    expect(await reached({ sub: 'alice', sid: 's1' }, { sid: 's1' })).toBe(true)
  })

  it('keys of another provider never match', async () => {
    const store = new MemoryLogoutStore()
    await store.revoke(logoutKeys('other', 'alice', undefined), 2_000, 60)
    expect(await store.revokedAt(sessionKeys({ p: 'idp', sub: 'alice' }))).toBeUndefined()
  })

  it('reads only a well-formed claim from a token', () => {
    expect(readOpLogoutClaim({ 'authchart:op': { p: 'idp', sub: 'alice', at: 5, idt: 'a.b.c' } })).toEqual({
      p: 'idp',
      sub: 'alice',
      at: 5,
      idt: 'a.b.c',
    })
    expect(readOpLogoutClaim({ 'authchart:op': { p: 'idp', sub: 7, at: 5 } })).toBeUndefined()
    expect(readOpLogoutClaim({ 'authchart:op': 'x' })).toBeUndefined()
    expect(readOpLogoutClaim(null)).toBeUndefined()
  })
})
