#!/usr/bin/env node
// The `authchart` command. A repository checkout runs the TypeScript sources through tsx, so the command always
// matches the code being edited; a published package (which ships dist/, not src/) runs its compiled CLI.
import { existsSync } from 'node:fs'

const source = new URL('../src/cli/main.ts', import.meta.url)
const built = new URL('../dist/src/cli/main.js', import.meta.url)
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api')
  register()
  await import(source.href)
} else if (existsSync(built)) {
  await import(built.href)
} else {
  process.stderr.write('authchart: neither the sources nor the built CLI were found; run `npm run build`\n')
  process.exitCode = 1
}
