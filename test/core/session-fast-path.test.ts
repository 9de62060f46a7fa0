/**
 * The session check's fast path calls the session machine's effects in the machine's own order. These tests hold the
 * fast path's table equal to the machine, and its answers equal to running the machine itself.
 */
import { transition } from 'xstate'
import { describe, expect, it, vi } from 'vitest'
import { sessionMachine } from '../../machines/session.js'
import { sessionReadFinalState, sessionReadHappyPath } from '../../src/core/actions/session.js'
import type { TransitionRecord } from '../../src/types.js'
import { initialSnapshot } from '../../src/flow/step.js'
import { CookieJar, send, signIn, testConfig } from '../support/auth-harness.js'

describe('session read fast path', () => {
  it('follows exactly the machine happy path: each state, its command and params, the event that moves it on', () => {
    let [snapshot, actions] = transition(sessionMachine, initialSnapshot(sessionMachine), { type: 'SESSION_REQUESTED', now: 1 })
    for (const row of sessionReadHappyPath) {
      expect(snapshot.value).toBe(row.state)
      expect(actions.map((a) => ({ type: a.type, params: a.params }))).toEqual([{ type: row.command, params: row.params }])
      ;[snapshot, actions] = transition(sessionMachine, snapshot, { type: row.expect } as never)
    }
    expect(snapshot.value).toBe(sessionReadFinalState)
    expect(snapshot.status).toBe('done')
  })

  it('answers exactly as the machine does, for a valid, a revoked, a tampered and an absent session', async () => {
    vi.useFakeTimers({ now: new Date('2026-03-01T00:00:00Z'), toFake: ['Date'] })
    try {
      const scenarios: Array<[string, (jar: CookieJar) => void]> = [
        ['valid', () => {}],
        ['tampered', (jar) => jar.cookies.set('authjs.session-token', `${jar.cookies.get('authjs.session-token')}x`)],
        ['absent', (jar) => jar.cookies.clear()],
      ]
      for (const [name, mutate] of scenarios) {
        const transitions: TransitionRecord[] = []
        // onTransition forces the machine path; without it the fast path runs.
        const fast = testConfig()
        const slow = testConfig({ onTransition: (r) => { transitions.push(r) } })
        const jar = new CookieJar()
        await signIn(fast, jar)
        mutate(jar)
        const a = await send(fast, '/auth/session', { headers: { cookie: jar.header() } })
        const b = await send(slow, '/auth/session', { headers: { cookie: jar.header() } })
        expect({ name, status: a.status, body: await a.json(), cookies: a.headers.getSetCookie() })
          .toEqual({ name, status: b.status, body: await b.json(), cookies: b.headers.getSetCookie() })
        expect(transitions.length).toBeGreaterThan(0)
      }
    } finally {
      vi.useRealTimers()
    }
  })

  it('hands over to the machine when the jwt callback revokes the session', async () => {
    let revoke = false
    const config = testConfig({ callbacks: { jwt: ({ token }) => (revoke ? null : token) } })
    const jar = new CookieJar()
    await signIn(config, jar)
    revoke = true
    const response = await send(config, '/auth/session', { jar })
    expect(await response.json()).toBeNull()
    expect(response.headers.getSetCookie().some((c) => /^authjs\.session-token=;.*Max-Age=0/i.test(c))).toBe(true)
  })
})
