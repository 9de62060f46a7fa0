/**
 * Which xstate the flow tests run against. In `npm test`: the pinned one (package.json names one exact version, the
 * one installed), since the compiled table reads xstate's internals. Under tools/xstate-latest-check.mjs
 * (XSTATE_UNDER_TEST names the newest 5.x it installed in a temporary directory): that copy, and not the pinned one,
 * built the machines, so the equivalence test that runs beside this one checks the table against the newer xstate.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { StateMachine } from 'xstate'
import { describe, expect, it } from 'vitest'
import { machineRegistry } from '../../machines/index.js'

const root = join(import.meta.dirname, '..', '..')

function packageOf(dir: string): { version: string } {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }
}

/** The `StateMachine` class of every entry file an xstate copy offers (bundlers pick one by their conditions). */
async function machineClassesOf(xstateDir: string): Promise<unknown[]> {
  const entries = ['xstate.esm.js', 'xstate.development.esm.js', 'xstate.cjs.mjs', 'xstate.development.cjs.mjs']
  const modules = await Promise.all(
    entries.map(async (entry) => (await import(join(xstateDir, 'dist', entry))) as { StateMachine: unknown }),
  )
  return modules.map((module) => module.StateMachine)
}

describe('the xstate under test', () => {
  const underTest = process.env.XSTATE_UNDER_TEST
  const pinnedDir = join(root, 'node_modules', 'xstate')

  it('built every machine of the registry', () => {
    for (const entry of Object.values(machineRegistry)) expect(entry.machine).toBeInstanceOf(StateMachine)
  })

  if (underTest) {
    it(`is the copy in ${underTest}, not the pinned one`, async () => {
      console.log(`[xstate-under-test] ${packageOf(underTest).version} from ${underTest}`)
      expect(await machineClassesOf(underTest)).toContain(StateMachine)
      expect(await machineClassesOf(pinnedDir)).not.toContain(StateMachine)
    })
  } else {
    it('is the pinned version: package.json names exactly the installed xstate', async () => {
      const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
        dependencies: Record<string, string>
      }
      expect(manifest.dependencies.xstate).toBe(packageOf(pinnedDir).version)
      expect(await machineClassesOf(pinnedDir)).toContain(StateMachine)
    })
  }
})
