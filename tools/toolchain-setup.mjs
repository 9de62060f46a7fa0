// Vitest's global setup of the `toolchain` project (vitest.config.ts): the toolchain its test files import, installed,
// built (SQLite's native driver) and linked before any of them loads (tools/toolchain.mjs). Runs only when such a file
// is selected.
import { ensureToolchain } from './toolchain.mjs'

export default function setup() {
  ensureToolchain({ native: true })
}
