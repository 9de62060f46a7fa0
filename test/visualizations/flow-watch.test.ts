/**
 * `authchart/flow-watch`: the live view's recorder, over a real node:http server (the middleware) and over `Auth()`
 * (the fetch-style `handle`), with the transitions Authchart's own `onTransition` hook reports.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Auth } from '../../src/core/auth.js'
import { createFlowWatch } from '../../visualizations/flow-watch.js'
import { testConfig } from '../support/auth-harness.js'

describe('createFlowWatch', () => {
  it('files the transitions of a request under its browser, per browser, through Auth()', async () => {
    const watch = createFlowWatch()
    const config = testConfig({ onTransition: watch.record })
    const first = await watch.handle(new Request('http://localhost:3000/auth/session'), (r) => Auth(r, config))
    const cookie = first.headers.getSetCookie().find((line) => line.startsWith('authchart-watch='))
    expect(cookie).toMatch(/^authchart-watch=[A-Za-z0-9_-]{16}; Path=\/; HttpOnly; SameSite=Lax$/)
    const browser = (cookie ?? '').split(';')[0]
    // The same browser again: no new cookie, and its steps add up.
    const again = await watch.handle(
      new Request('http://localhost:3000/auth/session', { headers: { cookie: browser } }),
      (r) => Auth(r, config),
    )
    expect(again.headers.getSetCookie().some((line) => line.startsWith('authchart-watch='))).toBe(false)
    const steps = watch.feed(browser)
    expect(steps.map((s) => [s.machine, s.event, s.to]).slice(-1)).toEqual([
      ['session', 'SESSION_NOT_FOUND', 'anonymous'],
    ])
    expect(new Set(steps.map((s) => s.flowId)).size).toBe(2)
    // Another browser sees nothing of it; a cookie the watcher could not have made is nobody.
    expect(watch.feed('authchart-watch=AAAAAAAAAAAAAAAA')).toEqual([])
    expect(watch.feed('authchart-watch=<script>')).toEqual([])
    expect(watch.feed(undefined)).toEqual([])
  })

  it('records nothing outside a watched request', () => {
    const watch = createFlowWatch()
    watch.record({ machine: 'session', flowId: 'f', from: 'idle', to: 'loading', event: 'SESSION_REQUESTED', at: 1 })
    expect(watch.feed('authchart-watch=AAAAAAAAAAAAAAAA')).toEqual([])
  })

  it('keeps the last maxSteps steps of the last maxBrowsers browsers', async () => {
    const watch = createFlowWatch({ maxSteps: 3, maxBrowsers: 2 })
    const browsers: string[] = []
    for (let b = 0; b < 3; b += 1) {
      const answer = await watch.handle(new Request('http://localhost/'), () => {
        for (let i = 0; i < 5; i += 1)
          watch.record({ machine: 'm', flowId: `b${b}`, from: `s${i}`, to: `s${i + 1}`, event: 'E', at: i })
        return new Response('ok')
      })
      browsers.push((answer.headers.get('set-cookie') ?? '').split(';')[0])
    }
    expect(watch.feed(browsers[0])).toEqual([])
    expect(watch.feed(browsers[2]).map((s) => s.to)).toEqual(['s3', 's4', 's5'])
  })
})

describe('the middleware on node:http', () => {
  let server: Server
  let base: string
  const watch = createFlowWatch({ cookieName: 'watch-me' })
  beforeAll(async () => {
    server = createServer((req, res) => {
      res.setHeader('set-cookie', 'app=1; Path=/')
      watch.middleware(req, res, () => {
        watch.record({ machine: 'm', flowId: 'f', from: 'a', to: 'b', event: 'GO', at: Date.now() })
        res.end(JSON.stringify(watch.feed(req.headers.cookie)))
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('names a new browser beside the app’s own cookies and follows it afterwards', async () => {
    const first = await fetch(base)
    const lines = first.headers.getSetCookie()
    expect(lines[0]).toBe('app=1; Path=/')
    const browser = (lines.find((line) => line.startsWith('watch-me=')) ?? '').split(';')[0]
    expect(browser).toMatch(/^watch-me=[A-Za-z0-9_-]{16}$/)
    const second = await fetch(base, { headers: { cookie: browser } })
    expect(((await second.json()) as unknown[]).length).toBe(2)
  })
})
