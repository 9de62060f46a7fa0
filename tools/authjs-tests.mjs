// Runs Auth.js's own public-behaviour tests against Authchart standing in for `@auth/core` (not part of `npm test`: the
// tests are Auth.js's, read from a checkout of its repository that stays outside this one; none of their code is
// here). The files are those of packages/core/test that exercise public behaviour: actions/, jwt.test.ts,
// assert-config.test.ts, env.test.ts and providers/. They import `@auth/core` by its source paths (`../src/...`,
// `../jwt`); each such import is answered with Authchart's built module of the same public name (`npm run build`
// first). Four helpers of Auth.js's that the tests reach into have no public counterpart and are stood in for here:
// the default callbacks (Authchart's own), the cookie parser (the `cookie` package), a random string, and the OAuth
// check-cookie helpers, of which only the redirect-proxy `state` is public behaviour (sealed as both libraries seal
// it); the others fail, and the tests that call them are counted as internals.
//
// Every test is then listed as passing, a documented departure (with its reason, from
// docs/migrating-from-authjs.md), an internal, or an unexplained failure. The exit code is 0 when no test fails
// without a reason and every listed departure still departs (a departure that passes is to be struck from the list).
//
// Usage:
//   git --git-dir=<next-auth git dir> archive HEAD packages/core | tar -x -C /tmp/authjs
//   npm run build && node tools/authjs-tests.mjs /tmp/authjs
import { existsSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { stripVTControlCharacters } from 'node:util'
import { startVitest } from 'vitest/node'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const dist = join(root, 'dist')

/** The test files that exercise `@auth/core`'s public behaviour, relative to packages/core. */
const testFiles = [
  'test/actions/**/*.test.ts',
  'test/jwt.test.ts',
  'test/assert-config.test.ts',
  'test/env.test.ts',
  'test/providers/**/*.test.ts',
]

const departuresDoc = 'docs/migrating-from-authjs.md#authjss-own-tests-run-against-authchart'

/**
 * The tests expected to fail, each with why: Authchart departs on purpose (the reason is in `departuresDoc`), or the
 * test calls an Auth.js internal. `name` matches the full name (describe blocks and title); `count` is how many match.
 */
const expectedFailures = [
  {
    kind: 'departure',
    file: 'test/assert-config.test.ts',
    name: /invalid callbackUrl/,
    count: 6,
    reason:
      'a callbackUrl that is neither an http(s) URL nor a path is ignored (the default is used), not answered with a 500: bad client input never gives a 5xx',
  },
  {
    kind: 'departure',
    file: 'test/assert-config.test.ts',
    name: /credentials: trying to use database strategy/,
    count: 1,
    reason:
      'credentials sign-in with database sessions is supported, so no UnsupportedStrategy (the test config has no adapter: Authchart names that, MissingAdapter)',
  },
  {
    kind: 'departure',
    file: 'test/actions/callback.test.ts',
    name: /Redirect Proxy > should redirect query with state/,
    count: 1,
    reason:
      'the redirect proxy forwards only to redirectProxyAllowedOrigins (forwarding anywhere lets a forged Host take over an account)',
  },
  {
    kind: 'internal',
    file: 'test/actions/callback.test.ts',
    name: /^OAuth check cookies are bound to their provider >/,
    count: 4,
    reason:
      "calls Auth.js's per-check cookie helpers (lib/actions/callback/oauth/checks); Authchart keeps one flow cookie, bound to its provider, and has no such helper",
  },
]

// Stand-ins for the Auth.js modules the tests reach into that are not public API. Their imports of Authchart's
// modules name them `authchart-dist/<path in dist>`.
const standIns = {
  // The default callbacks, as one object the tests spy on: Authchart's own.
  'lib/init': `
    import { defaultJwtCallback, defaultSessionCallback, defaultSignInCallback } from 'authchart-dist/src/effects/shared/default-callbacks.js'
    import { defaultRedirect } from 'authchart-dist/src/security/redirect-target.js'
    export const defaultCallbacks = {
      signIn: defaultSignInCallback,
      redirect: defaultRedirect,
      session: defaultSessionCallback,
      jwt: defaultJwtCallback,
    }
  `,
  'lib/vendored/cookie': `export { parse, serialize } from 'cookie'`,
  'lib/utils/web': `
    import { randomBytes } from 'node:crypto'
    export const randomString = (size) => randomBytes(size).toString('hex')
  `,
  // A redirect-proxy \`state\` is public behaviour: a JWT sealed like the session token with the salt
  // \`encodedState\`, holding { origin, random }, for 15 minutes (src/core/redirect-proxy.ts). The rest is internal.
  'lib/actions/callback/oauth/checks': `
    import { randomBytes } from 'node:crypto'
    import { encode } from 'authchart-dist/src/jwt.js'
    const internal = (name) => () => {
      throw new Error(name + ' is an Auth.js internal: Authchart has one flow cookie and no per-check cookie helpers')
    }
    export const state = {
      async create(options, origin) {
        const value = await encode({
          secret: options.jwt.secret,
          salt: 'encodedState',
          maxAge: 15 * 60,
          token: { origin, random: randomBytes(16).toString('hex') },
        })
        return { value, cookie: { name: options.cookies.state.name, value, options: options.cookies.state.options } }
      },
      use: internal('state.use'),
    }
    export const nonce = { create: internal('nonce.create'), use: internal('nonce.use') }
    export const pkce = { create: internal('pkce.create'), use: internal('pkce.use') }
  `,
}

/** Authchart's built module for a public module of `@auth/core`, by its path in that package (no extension). */
function publicModule(path) {
  const named = {
    index: 'src/index.js',
    jwt: 'src/jwt.js',
    errors: 'src/errors.js',
    types: 'src/types/index.js',
    adapters: 'adapters/index.js',
    providers: 'src/providers/index.js',
    'providers/index': 'src/providers/index.js',
    // setEnvDefaults and createActionURL, which @auth/core's root exports.
    'lib/utils/env': 'src/index.js',
  }[path]
  if (named) return join(dist, named)
  if (path.startsWith('providers/')) return join(dist, 'src', `${path}.js`)
  return undefined
}

const virtualPrefix = '\0authjs-stand-in:'

/** Points the checkout's imports of `@auth/core`'s sources at Authchart, and its bare imports at this repository. */
function standInFor(core) {
  const inCheckout = (file) => file !== undefined && !file.startsWith('\0') && file.startsWith(core + sep)
  return {
    name: 'authchart-stands-in-for-auth-core',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (source.startsWith('authchart-dist/')) return join(dist, source.slice('authchart-dist/'.length))
      const fromStandIn = importer?.startsWith(virtualPrefix)
      if (!inCheckout(importer) && !fromStandIn) return null
      if (!source.startsWith('.')) {
        if (source.startsWith('node:') || source.startsWith('\0')) return null
        // vitest, cookie: the checkout has no node_modules/ of its own.
        return this.resolve(source, join(root, 'package.json'), { skipSelf: true })
      }
      if (fromStandIn) return null
      const target = resolve(dirname(importer), source).replace(/\.(js|ts|tsx)$/, '')
      let path = relative(core, target).split(sep).join('/')
      if (path.startsWith('test/') || path === 'test') return null
      path = path === 'src' ? 'index' : path.replace(/^src\//, '')
      if (path in standIns) return `${virtualPrefix}${path}`
      const module = publicModule(path)
      if (module && existsSync(module)) return module
      throw new Error(`${relative(core, importer)} imports @auth/core's "${path}", which has no Authchart stand-in`)
    },
    load(id) {
      return id.startsWith(virtualPrefix) ? standIns[id.slice(virtualPrefix.length)] : null
    },
  }
}

function coreOf(checkout) {
  const dir = resolve(checkout)
  for (const candidate of [join(dir, 'packages', 'core'), dir])
    if (existsSync(join(candidate, 'test', 'actions'))) return candidate
  throw new Error(`${dir} is neither a checkout of Auth.js's repository nor its packages/core (no test/actions/)`)
}

async function main() {
  const checkout = process.argv[2]
  if (!checkout) throw new Error('usage: node tools/authjs-tests.mjs <checkout of the Auth.js repository>')
  const core = coreOf(checkout)
  if (!existsSync(join(dist, 'src', 'index.js'))) throw new Error('dist/ is missing: run `npm run build` first')
  if (core.startsWith(root + sep)) throw new Error('keep the Auth.js checkout outside this repository')

  const results = []
  const unhandled = []
  const collector = {
    onTestRunEnd(modules, errors) {
      for (const module of modules) {
        const file = relative(core, module.moduleId).split(sep).join('/')
        for (const error of module.errors())
          results.push({ file, name: '(file did not load)', state: 'failed', error: error.message })
        for (const test of module.children.allTests()) {
          const result = test.result()
          const [error] = result.errors ?? []
          results.push({ file, name: test.fullName, state: result.state, error: error?.message, diff: error?.diff })
        }
      }
      unhandled.push(...errors)
    },
  }
  const vitest = await startVitest(
    'test',
    [],
    { root: core, config: false, include: testFiles, watch: false, reporters: [collector], maxWorkers: 2 },
    { plugins: [standInFor(core)], oxc: { tsconfig: false } },
  )
  await vitest?.close()

  const tally = { pass: 0, departure: 0, internal: 0, unexplained: 0 }
  const lines = []
  const matched = new Map(expectedFailures.map((entry) => [entry, 0]))
  let stale = 0
  for (const result of results.sort((a, b) => a.file.localeCompare(b.file))) {
    const expected = expectedFailures.find((entry) => entry.file === result.file && entry.name.test(result.name))
    if (expected) matched.set(expected, matched.get(expected) + 1)
    const label = `${result.file} > ${result.name}`
    if (result.state === 'passed' && !expected) {
      tally.pass++
      lines.push(`pass         ${label}`)
    } else if (result.state === 'passed') {
      stale++
      lines.push(`PASSES NOW   ${label} (listed as ${expected.kind}: strike it from the list and the docs)`)
    } else if (expected) {
      tally[expected.kind]++
      lines.push(`${expected.kind.padEnd(12)} ${label}\n             ${expected.reason}`)
    } else {
      tally.unexplained++
      const detail = stripVTControlCharacters(
        [String(result.error ?? result.state), result.diff ?? ''].join('\n').trim(),
      )
      lines.push(`FAIL         ${label}\n${detail.replace(/^/gm, '             ')}`)
    }
  }
  for (const [entry, count] of matched)
    if (count !== entry.count) {
      stale++
      lines.push(
        `LIST STALE   ${entry.file} ${String(entry.name)}: ${String(count)} tests match, ${String(entry.count)} listed`,
      )
    }
  for (const error of unhandled) lines.push(`UNHANDLED    ${String(error?.message ?? error).split('\n')[0]}`)
  console.log(lines.join('\n'))
  console.log(
    `\n${String(results.length)} tests: ${String(tally.pass)} pass, ${String(tally.departure)} documented departures ` +
      `(${departuresDoc}), ${String(tally.internal)} call Auth.js internals, ${String(tally.unexplained)} fail without a reason`,
  )
  process.exitCode = tally.unexplained > 0 || stale > 0 || unhandled.length > 0 ? 1 : 0
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error)
  process.exitCode = 1
})
