/**
 * ExpressAuth takes its base path from where it is mounted, as @auth/express does, on real Express 4 and Express 5
 * servers over HTTP: `app.use('/api/auth', ...)` and the wildcard forms each major accepts, with no `basePath` set.
 * A configured base path that no request of the mount can reach is reported once, naming both paths.
 */
import express, { type Express } from 'express'
import express4 from 'express4'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ExpressAuth, getSession } from '../../src/frameworks/express.js'
import type { LoggerInstance } from '../../src/logger.js'
import type { AuthConfig } from '../../src/types/index.js'
import { CookieJar, testConfig } from '../support/auth-harness.js'
import { cookieNames, http, startApp, type RunningApp } from './express-http.js'

const majors: Array<[string, () => Express, string[]]> = [
  ['Express 5', express, ['/api/auth', '/api/auth/{*splat}', '/api/auth/*splat']],
  ['Express 4', express4, ['/api/auth', '/api/auth/*']],
]

/** A logger that keeps every warning with its detail. */
function warningsLogger() {
  const warnings: Array<{ code: string; detail?: Record<string, unknown> }> = []
  const logger: LoggerInstance = {
    warn: (code, detail) => {
      warnings.push({ code, detail: detail ? { ...detail } : undefined })
    },
    error: () => {},
    debug: () => {},
  }
  return { logger, warnings }
}

for (const [major, create, mounts] of majors) {
  for (const mount of mounts) {
    describe(`${major}: app.use('${mount}', ExpressAuth(config)) with no basePath`, () => {
      let app: RunningApp
      let config: AuthConfig
      beforeAll(async () => {
        config = testConfig()
        app = await startApp((a) => {
          a.use(mount, ExpressAuth(config))
          a.get('/api/other', (_req, res) => {
            res.send('other')
          })
          a.get('/me', async (req, res) => {
            res.json({ session: await getSession(req, config) })
          })
        }, create)
      })
      afterAll(() => app.close())

      it('answers under the mount path, with URLs on it', async () => {
        const result = await http(app.port, '/api/auth/providers')
        expect(result.status).toBe(200)
        expect(JSON.parse(result.body).credentials).toMatchObject({
          signinUrl: `http://127.0.0.1:${app.port}/api/auth/signin/credentials`,
          callbackUrl: `http://127.0.0.1:${app.port}/api/auth/callback/credentials`,
        })
      })

      it('signs in, answers the session there and to getSession in a route', async () => {
        const jar = new CookieJar()
        const csrf = await http(app.port, '/api/auth/csrf', { jar })
        const csrfToken = JSON.parse(csrf.body).csrfToken as string
        const result = await http(app.port, '/api/auth/callback/credentials', {
          jar,
          form: { username: 'ada', password: 'lovelace', csrfToken, callbackUrl: '/after' },
        })
        expect(result.status).toBe(302)
        expect(result.headers.location).toBe(`http://127.0.0.1:${app.port}/after`)
        expect(cookieNames(result)).toContain('authjs.session-token')
        const session = JSON.parse((await http(app.port, '/api/auth/session', { jar })).body)
        expect(session.user.email).toBe('ada@example.com')
        expect(JSON.parse((await http(app.port, '/me', { jar })).body).session.user.name).toBe('Ada Lovelace')
      })

      it('sends a refused sign-in to the sign-in page under the mount path', async () => {
        const jar = new CookieJar()
        const csrfToken = JSON.parse((await http(app.port, '/api/auth/csrf', { jar })).body).csrfToken as string
        const result = await http(app.port, '/api/auth/callback/credentials', {
          jar,
          form: { username: 'ada', password: 'wrong', csrfToken },
        })
        const location = new URL(result.headers.location as string)
        expect(location.pathname).toBe('/api/auth/signin')
        expect(location.searchParams.get('error')).toBe('CredentialsSignin')
      })

      it('serves the built-in sign-in page, whose form posts under the mount path', async () => {
        const page = await http(app.port, '/api/auth/signin')
        expect(page.status).toBe(200)
        expect(page.body).toContain('action="http://127.0.0.1:' + String(app.port) + '/api/auth/callback/credentials"')
      })

      it("leaves the app's other routes alone", async () => {
        expect((await http(app.port, '/api/other')).body).toBe('other')
      })
    })
  }

  describe(`${major}: a path segment with an encoded slash or space behind a wildcard mount`, () => {
    let app: RunningApp
    beforeAll(async () => {
      const config = testConfig()
      app = await startApp((a) => {
        a.use(mounts.at(-1) as string, ExpressAuth(config))
      }, create)
    })
    afterAll(() => app.close())

    it('still finds the mount path (the wildcard value is decoded, the URL is not)', async () => {
      for (const provider of ['git%20hub', 'a%2Fb']) {
        // An unknown provider's sign-in URL is answered by ExpressAuth under the mount it resolved (the page naming
        // the known ids, 400), not passed on to the app's 404.
        const result = await http(app.port, `/api/auth/signin/${provider}`)
        expect(result.status, provider).toBe(400)
        expect(result.body, provider).toContain('credentials')
      }
    })
  })

  describe(`${major}: a configured basePath wins over the mount path`, () => {
    let mismatched: RunningApp
    let above: RunningApp
    const mismatchLog = warningsLogger()
    const aboveLog = warningsLogger()
    beforeAll(async () => {
      const mismatchConfig = testConfig({ basePath: '/auth', logger: mismatchLog.logger })
      mismatched = await startApp((a) => {
        a.use('/api/auth', ExpressAuth(mismatchConfig))
      }, create)
      const aboveConfig = testConfig({ basePath: '/api/auth', logger: aboveLog.logger })
      above = await startApp((a) => {
        a.use('/api', ExpressAuth(aboveConfig))
        a.get('/api/other', (_req, res) => {
          res.send('other')
        })
      }, create)
    })
    afterAll(async () => {
      await mismatched.close()
      await above.close()
    })

    it('mounted where no request can lie under basePath: passes on, and warns once naming both paths', async () => {
      expect((await http(mismatched.port, '/api/auth/session')).status).toBe(404)
      expect((await http(mismatched.port, '/api/auth/providers')).status).toBe(404)
      const reported = mismatchLog.warnings.filter((w) => w.code === 'express-mount-basepath-mismatch')
      expect(reported).toHaveLength(1)
      expect(reported[0]?.detail).toMatchObject({ mountPath: '/api/auth', basePath: '/auth' })
    })

    it('mounted above basePath: serves under basePath, passes the rest on, and warns nothing', async () => {
      expect((await http(above.port, '/api/auth/providers')).status).toBe(200)
      expect((await http(above.port, '/api/other')).body).toBe('other')
      expect(aboveLog.warnings).toEqual([])
    })
  })
}
