/**
 * Module augmentation as Auth.js documents it, proven on a fixture project (test/types/fixture-augmentation/)
 * compiled with this repository's TypeScript against the packed package: `declare module 'authchart/jwt'` for the
 * token, `'authchart/types'` or `'authchart'` for Session and User, in an app that never imports `authchart/jwt`;
 * and the `jwt` callback's `session` argument typed as Auth.js types it (`session?.nickname` compiles).
 */
import { spawnSync } from 'node:child_process'
import { cpSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { root } from '../frameworks/support/fixture-app.js'
import { removePackedAuthchart, unpackAuthchart, type UnpackedAuthchart } from '../support/packed-authchart.js'

function compile(dir: string, project: string): { status: number | null; output: string } {
  const result = spawnSync(join(root, 'node_modules/.bin/tsc'), ['-p', project], { cwd: dir, encoding: 'utf8' })
  return { status: result.status, output: `${result.stdout}${result.stderr}` }
}

describe('module augmentation against the packed package', () => {
  let app: UnpackedAuthchart
  beforeAll(async () => {
    app = await unpackAuthchart('types-')
    cpSync(resolve(import.meta.dirname, 'fixture-augmentation'), app.dir, { recursive: true })
  }, 180_000)
  afterAll(async () => {
    app?.remove()
    await removePackedAuthchart()
  })

  it("augmenting 'authchart/types' and 'authchart/jwt' types the callbacks, getSession and the update data", () => {
    const { status, output } = compile(app.dir, 'tsconfig.submodules.json')
    expect(output).toBe('')
    expect(status).toBe(0)
  })

  it("augmenting 'authchart' (Session, User) and 'authchart/jwt' (JWT, never imported) does the same", () => {
    const { status, output } = compile(app.dir, 'tsconfig.root.json')
    expect(output).toBe('')
    expect(status).toBe(0)
  })

  it('without an augmentation the same app does not compile: the fields above exist only through it', () => {
    const { status, output } = compile(app.dir, 'tsconfig.control.json')
    expect(status).not.toBe(0)
    // The reads of the augmented fields fail, on the user, the session and in the app's route.
    // TypeScript prints a union in the order its members were first created, which other modules can change.
    expect(output).toMatch(
      /app\.ts\(\d+,\d+\): error TS2339: Property 'role' does not exist on type '(AdapterUser \| User|User \| AdapterUser)'/,
    )
    expect(output).toMatch(/app\.ts\(\d+,\d+\): error TS2339: Property 'nickname' does not exist on type 'Session'/)
    // ...but not the update data: `session` in the jwt callback is `any`, as in Auth.js.
    expect(output).not.toMatch(/Property 'nickname' does not exist on type '\{\}'/)
    expect(output).not.toMatch(/'session' is of type 'unknown'/)
  })
})
