/**
 * Every public subpath in package.json points at a module that exists in the sources (built to dist/ by `npm run
 * build`), and the packed package exposes every provider module and none of their shared helpers.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { emailProviderIds, oauthProviderIds, webAuthnProviderIds } from '../src/providers-internal/provider-ids.js'
import { removePackedAuthchart, unpackAuthchart, type UnpackedAuthchart } from './support/packed-authchart.js'

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  exports: Record<string, string | null | { import: string; types: string }>
}

function sourceOf(target: string): string {
  return target
    .replace(/^\.\/dist\//, './')
    .replace(/\.js$/, '.ts')
    .replace(/\.mjs$/, '.mts')
}

describe('package exports', () => {
  const entries = Object.entries(pkg.exports).filter(([, target]) => typeof target === 'object' && target !== null)
  it.each(entries.filter(([key]) => !key.includes('*')))('%s has a source module', (_key, target) => {
    const { import: js } = target as { import: string }
    // Svelte components ship as source, copied into dist/ as they are (JavaScript next to the .svelte files).
    const copied = js.replace(/^\.\/dist\//, './')
    expect(
      existsSync(new URL(`../${sourceOf(js)}`, import.meta.url)) ||
        existsSync(new URL(`../${copied}`, import.meta.url)),
    ).toBe(true)
  })

  it('providers/* covers every built-in provider named in the docs', () => {
    for (const id of [
      'credentials',
      'oauth',
      'oidc',
      'github',
      'google',
      'microsoft-entra-id',
      'apple',
      'gitlab',
      'discord',
      'slack',
      'twitter',
      'facebook',
      'linkedin',
      'auth0',
      'okta',
      'keycloak',
      'cognito',
      'twitch',
      'spotify',
      'reddit',
      'dropbox',
      'zitadel',
      'authentik',
    ]) {
      expect(existsSync(new URL(`../src/providers/${id}.ts`, import.meta.url)), id).toBe(true)
    }
  })
})

/** The module names (without `.ts`) in a source folder. */
function modulesIn(folder: string): string[] {
  return readdirSync(new URL(`../${folder}/`, import.meta.url))
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => file.slice(0, -'.ts'.length))
    .sort()
}

const providerModules = modulesIn('src/providers').filter((name) => name !== 'index')
const internalModules = modulesIn('src/providers-internal')

/** What importing a specifier from inside the unpacked app gave: the default export's type, or the error code. */
interface ImportOutcome {
  ok: boolean
  code?: string
  defaultType?: string
  names?: string[]
}

/** Imports each specifier in a fresh Node process whose working directory sees the packed package. */
function importAll(dir: string, specifiers: string[]): Record<string, ImportOutcome> {
  const script = `
    const out = {}
    for (const specifier of JSON.parse(process.argv[1])) {
      try {
        const module = await import(specifier)
        out[specifier] = { ok: true, defaultType: typeof module.default, names: Object.keys(module).sort() }
      } catch (error) {
        out[specifier] = { ok: false, code: error.code ?? error.message }
      }
    }
    process.stdout.write(JSON.stringify(out))
  `
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(specifiers)], {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  })
  if (result.status !== 0) throw new Error(`importing from the packed package failed:\n${result.stderr}`)
  return JSON.parse(result.stdout) as Record<string, ImportOutcome>
}

describe('the provider modules', () => {
  it('src/providers/ holds only providers: each id list names exactly its modules', () => {
    const listed = [...oauthProviderIds, ...emailProviderIds, ...webAuthnProviderIds, 'credentials', 'oauth', 'oidc']
    expect([...listed].sort()).toEqual(providerModules)
  })

  it('no helper shares a name with a provider (a moved helper is not reachable under its old subpath)', () => {
    expect(internalModules.filter((name) => providerModules.includes(name))).toEqual([])
  })
})

describe('the packed package', () => {
  let app: UnpackedAuthchart
  let outcomes: Record<string, ImportOutcome>
  beforeAll(async () => {
    app = await unpackAuthchart('exports-')
    outcomes = importAll(app.dir, [
      'authchart/providers',
      'authchart/providers/index',
      ...providerModules.map((name) => `authchart/providers/${name}`),
      ...internalModules.map((name) => `authchart/providers/${name}`),
      ...internalModules.map((name) => `authchart/providers-internal/${name}`),
      ...internalModules.map((name) => `authchart/dist/src/providers-internal/${name}.js`),
      'authchart/react',
    ])
  }, 180_000)
  afterAll(async () => {
    app?.remove()
    await removePackedAuthchart()
  })

  it('imports every provider module by its subpath, each with a provider factory as default export', () => {
    for (const name of providerModules) {
      expect(outcomes[`authchart/providers/${name}`], name).toMatchObject({ ok: true, defaultType: 'function' })
    }
  })

  it('has a bare authchart/providers entry (types only: it loads and exports no value)', () => {
    expect(outcomes['authchart/providers']).toEqual({ ok: true, defaultType: 'undefined', names: [] })
    expect(outcomes['authchart/providers/index']).toMatchObject({ ok: false, code: 'ERR_PACKAGE_PATH_NOT_EXPORTED' })
  })

  it('refuses every shared helper, under its old subpath and by deep path', () => {
    for (const name of internalModules) {
      for (const specifier of [
        `authchart/providers/${name}`,
        `authchart/providers-internal/${name}`,
        `authchart/dist/src/providers-internal/${name}.js`,
      ]) {
        const outcome = outcomes[specifier]
        expect(outcome?.ok, specifier).toBe(false)
        expect(['ERR_PACKAGE_PATH_NOT_EXPORTED', 'ERR_MODULE_NOT_FOUND'], specifier).toContain(outcome?.code)
      }
    }
  })

  it('ships type declarations for the bare entry and every provider module', () => {
    const dist = `${app.dir}/node_modules/authchart/dist/src/providers`
    expect(existsSync(`${dist}/index.d.ts`)).toBe(true)
    for (const name of providerModules) expect(existsSync(`${dist}/${name}.d.ts`), name).toBe(true)
    expect(existsSync(`${app.dir}/node_modules/authchart/dist/src/providers/normalize-oauth.js`)).toBe(false)
  })

  it('keeps the e-mail request counters public on authchart/providers/email', () => {
    expect(outcomes['authchart/providers/email']?.names).toEqual(
      expect.arrayContaining(['MemoryRequestCounter', 'RedisRequestCounter', 'defaultEmailRequestLimits']),
    )
  })

  it('ships authchart/next importing Next.js by the bare names Next.js aliases (loaded by its bundler, not Node)', () => {
    const dist = `${app.dir}/node_modules/authchart/dist/src/frameworks/next`
    expect(existsSync(`${dist}/index.d.ts`)).toBe(true)
    const built = ['actions', 'auth', 'config', 'handlers'].map((name) => readFileSync(`${dist}/${name}.js`, 'utf8'))
    expect(built.join('\n')).toMatch(/from 'next\/headers'/)
    expect(built.join('\n')).not.toMatch(/from 'next\/(headers|navigation|server)\.js'/)
  })

  it("authchart/react loads with next-auth/react's exports, and its built module is a Client Component", () => {
    expect(outcomes['authchart/react']).toMatchObject({ ok: true })
    expect(outcomes['authchart/react']?.names).toEqual(
      expect.arrayContaining([
        'SessionProvider',
        'SessionContext',
        'useSession',
        'signIn',
        'signOut',
        'getSession',
        'getCsrfToken',
        'getProviders',
      ]),
    )
    const built = readFileSync(`${app.dir}/node_modules/authchart/dist/src/frameworks/react/index.js`, 'utf8')
    // Next.js treats a module as a Client Component only when the directive opens it.
    expect(built.startsWith("'use client'")).toBe(true)
  })
})
