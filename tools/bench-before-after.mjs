#!/usr/bin/env node
/**
 * The session check of this checkout against the same check of an earlier commit, in one plain `node` process,
 * interleaved (bench/measure.ts's `compare`): what a change cost or saved, measured the way `npm run bench` measures
 * Authchart against @auth/core. Both builds check 20,000 distinct users' cookies in turn (each sealed by its own
 * build's `encode`, the same claims, secret and cookie name), re-issuing the cookie on every check, and a credentials
 * sign-in (`GET /csrf` + `POST /callback/credentials`).
 *
 *   node tools/bench-before-after.mjs <commit> [--quick] [--repeat N]
 *
 * The earlier commit is checked out in a temporary worktree (with this checkout's node_modules linked in) and both
 * are compiled with `tsc -p bench/tsconfig.json`; the worktree is removed afterwards.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

const args = process.argv.slice(2)
const before = args.find((arg) => !arg.startsWith('--'))
if (!before) {
  console.error('usage: node tools/bench-before-after.mjs <commit> [--quick] [--repeat N]')
  process.exit(2)
}
const quick = args.includes('--quick')
const repeat = args.includes('--repeat') ? Number(args[args.indexOf('--repeat') + 1]) : 1
const here = resolve(import.meta.dirname, '..')

function sh(command, commandArgs, cwd) {
  execFileSync(command, commandArgs, { cwd, stdio: ['ignore', 'inherit', 'inherit'] })
}

const scratch = mkdtempSync(join(tmpdir(), 'authchart-before-'))
const tree = join(scratch, 'tree')
sh('git', ['worktree', 'add', '--detach', tree, before], here)
try {
  symlinkSync(join(here, 'node_modules'), join(tree, 'node_modules'), 'dir')
  console.log(`compiling ${before} and this checkout (tsc -p bench/tsconfig.json)`)
  sh('npx', ['tsc', '-p', 'bench/tsconfig.json'], tree)
  sh('npx', ['tsc', '-p', 'bench/tsconfig.json'], here)
  for (let run = 1; run <= repeat; run++) {
    console.log(`\n# run ${run} of ${repeat}`)
    await measure(join(here, 'dist-bench'), join(tree, 'dist-bench'))
  }
} finally {
  sh('git', ['worktree', 'remove', '--force', tree], here)
  rmSync(scratch, { recursive: true, force: true })
}

async function build(dir) {
  const load = (path) => import(pathToFileURL(join(dir, path)).href)
  const [{ Auth }, { encode }, { default: Credentials }] = await Promise.all([
    load('src/index.js'),
    load('src/jwt.js'),
    load('src/providers/credentials.js'),
  ])
  return { Auth, encode, Credentials }
}

async function measure(afterDir, beforeDir) {
  const { compare, printTable, runOptions, Jar } = await import(pathToFileURL(join(afterDir, 'bench/measure.js')).href)
  const after = await build(afterDir)
  const earlier = await build(beforeDir)
  const origin = 'http://localhost:3000'
  const secret = 'bench-secret-bench-secret-bench-secret-42'
  const salt = 'authjs.session-token'
  const users = 20_000
  const authorize = async (credentials) =>
    credentials.password === 'pw' ? { id: 'u1', name: 'Ada', email: 'ada@example.com' } : null
  const configOf = (lib) => ({
    secret,
    trustHost: true,
    basePath: '/auth',
    providers: [lib.Credentials({ credentials: { username: {}, password: {} }, authorize })],
  })
  const sides = async (lib) => {
    const config = configOf(lib)
    const cookies = []
    for (let i = 0; i < users; i++) {
      const token = { name: `User ${i}`, email: `user${i}@example.com`, picture: null, sub: `user-${i}` }
      cookies.push(`${salt}=${await lib.encode({ token, secret, salt })}`)
    }
    let next = 0
    const check = {
      run: async () => {
        const response = await lib.Auth(
          new Request(`${origin}/auth/session`, { headers: { cookie: cookies[next++ % users] } }),
          config,
        )
        if (!(await response.text()).includes('@example.com')) throw new Error('the session check found no session')
      },
    }
    const signIn = {
      run: async () => {
        const jar = new Jar()
        const csrf = await lib.Auth(new Request(`${origin}/auth/csrf`), config)
        jar.take(csrf)
        const { csrfToken } = await csrf.json()
        const response = await lib.Auth(
          new Request(`${origin}/auth/callback/credentials`, {
            method: 'POST',
            headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ csrfToken, username: 'ada', password: 'pw' }).toString(),
          }),
          config,
        )
        await response.text()
        if (!response.headers.getSetCookie().some((line) => line.startsWith(salt)))
          throw new Error('the credentials sign-in issued no session')
      },
    }
    return { check, signIn }
  }
  const run = runOptions(quick)
  const a = await sides(after)
  const b = await sides(earlier)
  const results = [
    await compare(`GET /session, ${users.toLocaleString('en')} distinct users in turn`, a.check, b.check, run),
    await compare('credentials sign-in (GET /csrf + POST /callback/credentials)', a.signIn, b.signIn, run),
  ]
  printTable(`This checkout against ${before}`, results, run, ['this checkout', before])
}
