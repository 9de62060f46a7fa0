/**
 * Every warning code the source can emit has a sentence the built-in logger prints, and a row in docs/logging.md;
 * an unknown path under the base path logs one warn line with a code and no stack.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { JWTSessionError, UnknownAction } from '../../src/errors.js'
import { createLogger, logClientInput } from '../../src/logger.js'
import { warningSentence, warningSentences } from '../../src/warning-sentences.js'
import { recordingLogger, send, testConfig } from '../support/auth-harness.js'

const root = new URL('../../', import.meta.url).pathname

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : []
  })
}

/** Every code literal passed to a `.warn(` call anywhere in src/ and adapters/. */
function emittedCodes(): Set<string> {
  const codes = new Set<string>()
  for (const file of [...sourceFiles(join(root, 'src')), ...sourceFiles(join(root, 'adapters'))]) {
    for (const m of readFileSync(file, 'utf8').matchAll(/\.warn\(\s*['"`]([a-z][a-z0-9-]*)['"`]/g))
      codes.add(m[1] ?? '')
  }
  return codes
}

afterEach(() => vi.restoreAllMocks())

describe('warning codes', () => {
  it('every code the source emits has a sentence', () => {
    const emitted = emittedCodes()
    expect(emitted.size).toBeGreaterThan(10)
    for (const code of emitted) expect(Object.keys(warningSentences), code).toContain(code)
  })

  it('every code with a sentence is documented in docs/logging.md', () => {
    const doc = readFileSync(join(root, 'docs/logging.md'), 'utf8')
    for (const code of Object.keys(warningSentences)) expect(doc, code).toContain(`| \`${code}\` |`)
  })

  it.each(['secret-too-short', 'experimental-webauthn', 'credentials-lockout'] as const)(
    'the built-in logger prints %s with its sentence',
    (code) => {
      const lines: string[] = []
      vi.spyOn(console, 'warn').mockImplementation((line: string) => void lines.push(line))
      createLogger({}).warn(code)
      expect(lines).toEqual([`[authchart][warn][${code}] ${warningSentences[code]}`])
      expect(warningSentences[code].length).toBeGreaterThan(20)
    },
  )

  it('a refusal names its check', () => {
    expect(warningSentence('refused:csrf')).toContain('csrf check')
  })
})

describe('an unknown path under the base path', () => {
  it.each(['/auth/nope', '/auth/session/extra/more'])(
    '%s: one warn line with a code, no error line, no stack',
    async (path) => {
      const warned: string[] = []
      const errored: unknown[] = []
      vi.spyOn(console, 'warn').mockImplementation((line: string) => void warned.push(line))
      vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void errored.push(args))
      const config = testConfig()
      delete config.logger
      const response = await send(config, path)
      expect(response.status).toBe(400)
      expect(warned).toHaveLength(1)
      expect(warned[0]).toMatch(/^\[authchart\]\[warn\]\[unknown-action\] A request under the auth base path/)
      expect(warned[0]).not.toContain('\n')
      expect(errored).toEqual([])
    },
  )

  it("an app logger still receives Auth.js's UnknownAction", async () => {
    const recorded = recordingLogger()
    await send(testConfig({ logger: recorded.logger }), '/auth/nope')
    expect(recorded.warnings).toEqual(['unknown-action'])
    expect(recorded.errors[0]).toBeInstanceOf(UnknownAction)
  })
})

describe('junk from clients', () => {
  /** Requests a scanner sends: unreadable session cookies, bodies that are not JSON, provider ids that do not exist. */
  const junk: Array<[string, Parameters<typeof send>[2]]> = [
    ['/auth/session', { headers: { cookie: 'authjs.session-token=garbage' } }],
    ['/auth/session', { headers: { cookie: 'authjs.session-token=a.b.c.d.e' } }],
    ['/auth/callback/credentials', { body: '{not json', headers: { 'content-type': 'application/json' } }],
    ['/auth/callback/credentials', { body: '[1]', headers: { 'content-type': 'application/json' } }],
    ['/auth/signin/nope', {}],
    ['/auth/callback/nope?code=1', {}],
  ]

  it('the built-in logger prints warn lines without stacks, at most 10 a minute, then how many it left out', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    // A minute boundary of its own, so lines from earlier tests in this process do not count.
    vi.setSystemTime(Date.now() + 3_600_000)
    const warned: string[] = []
    const errored: unknown[] = []
    vi.spyOn(console, 'warn').mockImplementation((line: string) => void warned.push(line))
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void errored.push(args))
    const config = testConfig()
    delete config.logger
    for (let round = 0; round < 5; round++) for (const [path, options] of junk) await send(config, path, options)
    expect(errored).toEqual([])
    const lines = warned.filter((line) => line.startsWith('[authchart][warn][client-input]'))
    expect(lines).toHaveLength(10)
    for (const line of lines) expect(line).not.toContain('\n')
    expect(lines.map((line) => /type=(\w+)/.exec(line)?.[1])).toEqual(
      expect.arrayContaining(['JWTSessionError', 'InvalidRequest', 'InvalidProvider']),
    )
    vi.setSystemTime(Date.now() + 61_000)
    await send(config, '/auth/session', { headers: { cookie: 'authjs.session-token=garbage' } })
    expect(warned.filter((line) => line.includes('suppressed=20'))).toHaveLength(1)
    vi.useRealTimers()
  })

  it("past the window's share, the built-in logger builds no error for junk (an Error records its stack when built)", () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 7_200_000)
    const warned: string[] = []
    vi.spyOn(console, 'warn').mockImplementation((line: string) => void warned.push(line))
    const builtIn = createLogger({})
    let built = 0
    const build = () => {
      built++
      return new JWTSessionError('junk cookie')
    }
    for (let i = 0; i < 25; i++) logClientInput(builtIn, build)
    expect(built).toBe(10)
    expect(warned.filter((line) => line.startsWith('[authchart][warn][client-input]'))).toHaveLength(10)
    // An app's own logger.error gets every one of them, as Auth.js passes them.
    const received: Error[] = []
    const own = createLogger({ logger: { error: (error) => void received.push(error) } })
    for (let i = 0; i < 25; i++) logClientInput(own, build)
    expect(received).toHaveLength(25)
    expect(built).toBe(35)
    vi.setSystemTime(Date.now() + 61_000)
    logClientInput(builtIn, build)
    expect(warned.filter((line) => line.includes('suppressed=15'))).toHaveLength(1)
    vi.useRealTimers()
  })

  it('an app logger still receives each error, as Auth.js passes it', async () => {
    const recorded = recordingLogger()
    const config = testConfig({ logger: recorded.logger })
    for (const [path, options] of junk) await send(config, path, options)
    expect(recorded.errors.map((error) => error.name)).toEqual([
      'JWTSessionError',
      'JWTSessionError',
      'InvalidRequest',
      'InvalidRequest',
      'InvalidProvider',
      'InvalidProvider',
    ])
  })

  it('GET /auth/callback/credentials shows the error page and logs one refused:method line', async () => {
    const recorded = recordingLogger()
    const response = await send(testConfig({ logger: recorded.logger }), '/auth/callback/credentials')
    expect(response.headers.get('location')).toContain('error=Configuration')
    expect(recorded.refusals).toEqual([
      {
        code: 'refused:method',
        detail: { provider: 'credentials', reason: 'GET is not served for this provider route' },
      },
    ])
  })
})
