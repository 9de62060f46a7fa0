/**
 * ExpressAuth reads Node's request lazily and writes Node's response directly: the session check builds no web
 * `Request` or `Response` (an app callback that receives the request still gets a real one, test/frameworks/express.test.ts).
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { ExpressAuth } from '../../src/frameworks/express.js'
import { CookieJar, testConfig } from '../support/auth-harness.js'
import { http, startApp, type RunningApp } from './express-http.js'

const config = testConfig()
let app: RunningApp
beforeAll(async () => {
  app = await startApp((server) => server.use(ExpressAuth(config)))
})
afterAll(() => app.close())

it('answers the session check without building a web Request or Response', async () => {
  const jar = new CookieJar()
  const csrf = await http(app.port, '/auth/csrf', { jar })
  const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string }
  const signIn = await http(app.port, '/auth/callback/credentials', {
    jar,
    form: { username: 'ada', password: 'lovelace', csrfToken },
  })
  expect(signIn.status).toBe(302)

  const originals = { Request: globalThis.Request, Response: globalThis.Response }
  let built = 0
  globalThis.Request = class extends originals.Request {
    constructor(...args: ConstructorParameters<typeof Request>) {
      super(...args)
      built++
    }
  }
  globalThis.Response = class extends originals.Response {
    constructor(...args: ConstructorParameters<typeof Response>) {
      super(...args)
      built++
    }
  }
  let result: Awaited<ReturnType<typeof http>>
  try {
    result = await http(app.port, '/auth/session', { headers: { cookie: jar.header() } })
  } finally {
    globalThis.Request = originals.Request
    globalThis.Response = originals.Response
  }
  expect(result.status).toBe(200)
  expect(JSON.parse(result.body)).toMatchObject({ user: { email: 'ada@example.com' } })
  expect(built).toBe(0)
})
