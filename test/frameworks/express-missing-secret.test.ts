/**
 * An Express app started without AUTH_SECRET, as a newcomer first runs one: the app's own route that reads the session
 * ends on Express's default error page, which must say what is wrong and how to fix it (`npx authchart secret`),
 * with no stack trace; the auth endpoints answer the generic configuration error, also without one.
 */
import type { AddressInfo } from 'node:net'
import express from 'express'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { ExpressAuth, getSession } from '../../src/frameworks/express.js'
import Credentials from '../../src/providers/credentials.js'
import type { AuthConfig } from '../../src/types/index.js'

const saved = process.env.AUTH_SECRET
let origin = ''
let close: () => Promise<void>
const logged: string[] = []

beforeAll(async () => {
  delete process.env.AUTH_SECRET
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' ')))
  const authConfig: AuthConfig = {
    trustHost: true,
    providers: [Credentials({ credentials: { username: {} }, authorize: () => null })],
  }
  const app = express()
  app.use('/auth', ExpressAuth(authConfig))
  app.get('/', async (req, res) => {
    const session = await getSession(req, authConfig)
    res.send(session ? 'signed in' : 'not signed in')
  })
  const server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  close = () => new Promise((resolve) => server.close(() => resolve()))
})
afterAll(async () => {
  await close()
  vi.restoreAllMocks()
  if (saved !== undefined) process.env.AUTH_SECRET = saved
})

describe('an Express app without AUTH_SECRET', () => {
  it('logs at start-up, once, what to do', () => {
    const lines = logged.filter((line) => line.includes('MissingSecret'))
    expect(lines).toHaveLength(1)
    expect(logged.join('\n')).toContain('npx authchart secret --write')
  })

  it("the app's route that reads the session: Express's error page names the fix, without a stack", async () => {
    const response = await fetch(`${origin}/`, { headers: { accept: 'text/html' } })
    expect(response.status).toBe(500)
    const page = await response.text()
    expect(page).toContain('MissingSecret: Please define a `secret`')
    expect(page).toContain('npx authchart secret --write')
    expect(page).not.toContain('did not answer')
    expect(page).not.toMatch(/\bat \S+ \(|node:internal/)
  })

  it('the auth endpoints answer the generic configuration error, as JSON or a page, without a stack', async () => {
    const json = await fetch(`${origin}/auth/session`)
    expect(json.status).toBe(500)
    expect(await json.json()).toEqual({
      message: 'There was a problem with the server configuration. Check the server logs for more information.',
    })
    const page = await fetch(`${origin}/auth/signin`, { headers: { accept: 'text/html' } })
    expect(page.status).toBe(500)
    expect(await page.text()).not.toMatch(/\bat \S+ \(|node:internal/)
  })
})
