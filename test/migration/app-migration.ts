/**
 * What the migration test does to the fixture app: the rewrite of its import specifiers from Auth.js to Authchart
 * (done here, on a copy, never by hand), the copies side by side next to the packed Authchart, and the app started
 * the way its owner starts it (`node --import tsx server.ts`), on Express 4 as `@auth/express` documents it.
 */
import { cpSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { root, startNodeServer, type RunningServer } from '../frameworks/support/fixture-app.js'

export const fixtureDir = resolve(import.meta.dirname, 'fixture-app')

/** Auth.js module specifiers and their Authchart names; `@auth/core/providers/<id>` keeps its `<id>`. */
const specifierMap: Array<[RegExp, string]> = [
  [/^@auth\/express$/, 'authchart/express'],
  [/^@auth\/express\/providers(\/.*)?$/, 'authchart/providers$1'],
  [/^@auth\/express\/adapters$/, 'authchart/adapters'],
  [/^@auth\/core$/, 'authchart'],
  [/^@auth\/core\/(types|jwt|errors|adapters)$/, 'authchart/$1'],
  [/^@auth\/core\/providers(\/.*)?$/, 'authchart/providers$1'],
]

/** The Authchart specifier for an Auth.js one, or the specifier itself (database adapters and the rest stay). */
export function authchartSpecifier(specifier: string): string {
  for (const [pattern, replacement] of specifierMap) {
    if (pattern.test(specifier)) return specifier.replace(pattern, replacement)
  }
  return specifier
}

/** Rewrites the module specifiers of `import`, `export ... from` and `declare module` in one source file. */
export function rewriteImports(source: string): string {
  return source.replace(
    /(\bfrom\s+|\bimport\s+|\bimport\(\s*|\bdeclare\s+module\s+)(['"])([^'"]+)\2/g,
    (_all, lead: string, quote: string, specifier: string) => `${lead}${quote}${authchartSpecifier(specifier)}${quote}`,
  )
}

/** Copies the fixture to `target`; with `rewrite`, every TypeScript file gets its imports rewritten to Authchart. */
export function copyFixture(target: string, rewrite: boolean): void {
  cpSync(fixtureDir, target, { recursive: true })
  if (!rewrite) return
  for (const file of readdirSync(target).filter((name) => name.endsWith('.ts'))) {
    const path = join(target, file)
    writeFileSync(path, rewriteImports(readFileSync(path, 'utf8')))
  }
}

/** Makes `express` resolve to Express 4 (installed as `express4`) for every app under `dir`. */
export function useExpress4(dir: string): void {
  symlinkSync(join(root, 'node_modules', 'express4'), join(dir, 'node_modules', 'express'), 'dir')
}

/** Starts the app in `dir` on `port` with `env` (and `PORT`). */
export function startFixtureApp(dir: string, port: number, env: Record<string, string>): Promise<RunningServer> {
  return startNodeServer(process.execPath, ['--import', 'tsx', 'server.ts'], dir, port, { ...env, PORT: String(port) })
}
