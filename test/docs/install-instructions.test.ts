/**
 * The install instructions, followed as a newcomer follows them: getting-started.md's Install steps (`npm pack` in the
 * repository, whose `prepack` builds; the tarball installed into a fresh app in a folder of its own, next to a folder
 * named `authchart` holding it), then the README's Quick start copied unchanged into `server.ts`, its secret written
 * and the server started with the README's commands, and a credentials sign-in through it. Only what no newcomer
 * has is supplied: the `./users.js` module the sample asks the reader to write, and a free port in place of 3000
 * (a preload maps `listen(3000)` to it, so that the sample's text stays unchanged).
 */
import { spawn } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import {
  browse,
  CookieJar,
  freePort,
  npm,
  npmFlags,
  packAuthchart,
  removePackedAuthchart,
  root,
  run,
} from '../frameworks/support/fixture-app.js'
import { samplesOf } from './samples.js'

const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }

/** The shell lines of the first `sh` block after `heading` in `page`, comments and blanks dropped, split at `# in`. */
function shellSteps(page: string, heading: string): { repository: string[]; app: string[] } {
  const text = readFileSync(join(root, page), 'utf8')
  const section = text.slice(text.indexOf(heading))
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? ''
  const steps: { repository: string[]; app: string[] } = { repository: [], app: [] }
  let part: 'repository' | 'app' = 'repository'
  for (const line of block.split('\n')) {
    if (/^#\s*in your app/.test(line)) part = 'app'
    const command = line.replace(/#.*$/, '').trim()
    if (command) steps[part].push(command)
  }
  return steps
}

const work = mkdtempSync(join(tmpdir(), 'authchart-install-'))
afterAll(async () => {
  rmSync(work, { recursive: true, force: true })
  await removePackedAuthchart()
})

describe('the install instructions, from a clean folder', () => {
  it('getting-started.md installs the packed tarball, and the README Quick start runs unchanged and signs in', async () => {
    const steps = shellSteps('docs/getting-started.md', '## Install')
    // In the repository: install, then `npm pack`, which builds (prepack) before packing.
    expect(steps.repository).toEqual(['npm install', 'npm pack'])
    const packed = await packAuthchart()
    expect(basename(packed)).toBe(`authchart-${version}.tgz`)
    const listing = run('tar', ['-tzf', packed], work)
    expect(listing).toContain('package/dist/src/index.js')

    // The clone's folder holds the tarball; the app is a fresh folder next to it.
    mkdirSync(join(work, 'authchart'))
    copyFileSync(packed, join(work, 'authchart', basename(packed)))
    const app = join(work, 'my-app')
    mkdirSync(app)
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'my-app', private: true, type: 'module' }))
    expect(steps.app).toEqual([`npm install ../authchart/authchart-${version}.tgz`])
    run(npm, ['install', ...npmFlags, `../authchart/authchart-${version}.tgz`], app)
    const manifest = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')) as Record<string, unknown>
    expect(manifest.dependencies).toEqual({ authchart: `file:../authchart/authchart-${version}.tgz` })

    // The README's Quick start: `express`, and tsx to run the TypeScript, as its text says.
    const readme = readFileSync(join(root, 'README.md'), 'utf8')
    const quickStart = readme.slice(readme.indexOf('## Quick start'))
    expect(quickStart).toMatch(/and `express`/)
    expect(quickStart).toContain('npm install -D tsx')
    run(npm, ['install', ...npmFlags, 'express'], app)
    run(npm, ['install', ...npmFlags, '-D', 'tsx'], app)
    const [sample] = samplesOf(root, 'README.md').filter((s) => s.code.includes('app.listen(3000)'))
    writeFileSync(join(app, 'server.ts'), sample.code)
    writeFileSync(
      join(app, 'users.ts'),
      "export async function checkPassword(email: unknown, password: unknown) {\n  return email === 'ada@example.com' && password === 'lovelace' ? { id: 'ada', name: 'Ada' } : null\n}\n",
    )
    const commands = shellSteps('README.md', '## Quick start').repository
    expect(commands).toEqual(['npx authchart secret --write', 'npx tsx --env-file=.env server.ts'])
    run(npm, ['exec', '--offline', '--', ...commands[0].split(' ').slice(1)], app)
    expect(readFileSync(join(app, '.env'), 'utf8')).toMatch(/^AUTH_SECRET=\S{32,}/m)

    const port = await freePort()
    writeFileSync(
      join(work, 'port.mjs'),
      "import net from 'node:net'\nconst listen = net.Server.prototype.listen\nnet.Server.prototype.listen = function (...args) {\n  if (args[0] === 3000) args[0] = Number(process.env.QUICKSTART_PORT)\n  return listen.apply(this, args)\n}\n",
    )
    const server = spawn(npm, ['exec', '--offline', '--', ...commands[1].split(' ').slice(1)], {
      cwd: app,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        QUICKSTART_PORT: String(port),
        NODE_OPTIONS: `--import ${join(work, 'port.mjs')}`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    })
    let output = ''
    server.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    server.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const origin = `http://localhost:${port}`
    try {
      const deadline = Date.now() + 60_000
      for (;;) {
        const up = await fetch(`${origin}/`).then(
          (r) => r.ok,
          () => false,
        )
        if (up) break
        if (server.exitCode !== null || Date.now() > deadline)
          throw new Error(`the Quick start did not start:\n${output}`)
        await new Promise((wait) => setTimeout(wait, 200))
      }
      const jar = new CookieJar()
      expect(await (await browse(`${origin}/`, jar)).text()).toContain('Sign in')
      const { csrfToken } = (await (await browse(`${origin}/auth/csrf`, jar)).json()) as { csrfToken: string }
      const signedIn = await browse(`${origin}/auth/callback/credentials`, jar, {
        form: { email: 'ada@example.com', password: 'lovelace', csrfToken },
      })
      expect(signedIn.status, output).toBe(302)
      expect(await (await browse(`${origin}/`, jar)).text()).toBe('Hello Ada')
    } finally {
      if (server.pid !== undefined && server.exitCode === null) process.kill(-server.pid, 'SIGTERM')
    }
  }, 600_000)
})
