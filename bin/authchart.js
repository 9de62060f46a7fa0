#!/usr/bin/env node
// The `authchart` command. A published package runs its compiled CLI; a repository checkout (no dist/) runs the
// TypeScript sources through tsx, so `npx authchart ...` works in both.
import { existsSync } from 'node:fs'

const built = new URL('../dist/src/cli/main.js', import.meta.url)
if (existsSync(built)) {
  await import(built.href)
} else {
  const { register } = await import('tsx/esm/api')
  register()
  await import(new URL('../src/cli/main.ts', import.meta.url).href)
}
