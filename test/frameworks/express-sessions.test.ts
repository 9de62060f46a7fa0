/**
 * Session management from an Express app: `listSessions`, `revokeOtherSessions` and `revokeSession` read the session
 * from the Express request's cookies (JWT sessions, `MemorySessionStore`), so an app route can show and end devices.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ExpressAuth, listSessions, revokeOtherSessions, revokeSession } from '../../src/frameworks/express.js'
import { MemorySessionStore } from '../../src/flow/stores/logout.js'
import { CookieJar, testConfig } from '../support/auth-harness.js'
import { http, startApp, type RunningApp } from './express-http.js'

const config = testConfig({ sessionManagement: { store: new MemorySessionStore() } })
let app: RunningApp

beforeAll(async () => {
  app = await startApp((server) => {
    server.use('/auth', ExpressAuth(config))
    server.get('/me/sessions', (req, res, next) => {
      listSessions(req, config).then((sessions) => res.json(sessions), next)
    })
    server.post('/me/sessions/others', (req, res, next) => {
      revokeOtherSessions(req, config).then((ended) => res.json({ ended }), next)
    })
    server.post('/me/sessions/:id', (req, res, next) => {
      revokeSession(req, config, req.params.id ?? '').then((ended) => res.json({ ended }), next)
    })
  })
})
afterAll(() => app.close())

async function signIn(username: string, password: string): Promise<CookieJar> {
  const jar = new CookieJar()
  const { csrfToken } = JSON.parse((await http(app.port, '/auth/csrf', { jar })).body) as { csrfToken: string }
  const done = await http(app.port, '/auth/callback/credentials', { jar, form: { csrfToken, username, password } })
  expect(done.status).toBe(302)
  return jar
}

describe('Express: session management helpers', () => {
  it('lists the user’s sessions and ends the others; another user’s id ends nothing', async () => {
    const [one, two, three] = [
      await signIn('ada', 'lovelace'),
      await signIn('ada', 'lovelace'),
      await signIn('ada', 'lovelace'),
    ]
    const alan = await signIn('alan', 'turing')
    const listed = JSON.parse((await http(app.port, '/me/sessions', { jar: one })).body) as Array<{
      id: string
      current: boolean
    }>
    expect(listed).toHaveLength(3)
    expect(listed.filter((s) => s.current)).toHaveLength(1)
    const someOther = listed.find((s) => !s.current)?.id ?? ''
    expect(JSON.parse((await http(app.port, `/me/sessions/${someOther}`, { jar: alan, method: 'POST' })).body)).toEqual(
      { ended: false },
    )
    expect(JSON.parse((await http(app.port, '/me/sessions/others', { jar: one, method: 'POST' })).body)).toEqual({
      ended: 2,
    })
    for (const jar of [two, three]) expect(JSON.parse((await http(app.port, '/auth/session', { jar })).body)).toBeNull()
    expect(JSON.parse((await http(app.port, '/auth/session', { jar: one })).body)).toMatchObject({
      user: { name: 'Ada Lovelace' },
    })
    expect(JSON.parse((await http(app.port, '/me/sessions', { jar: new CookieJar() })).body)).toBeNull()
  })
})
