import { defineConfig } from 'vitest/config'

/**
 * Test files that import part of the toolchain (tools/toolchain/package.json: Next.js and React, Qwik, SvelteKit,
 * Express 4, Drizzle, SQLite's driver, TypeScript's compiler API), which the repository's own `npm install` does not
 * install: their project installs, builds and links it first (tools/toolchain.mjs).
 */
const toolchainTests = [
  // Next's own NextRequest (binding-parts), and the packed authchart/react loaded with the repository's React.
  'test/frameworks/next/**/*.test.ts',
  'test/package-exports.test.ts',
  'test/frameworks/qwik/**/*.test.ts',
  'test/frameworks/sveltekit/**/*.test.ts',
  'test/frameworks/solid-start/**/*.test.ts',
  'test/frameworks/express-mount.test.ts',
  'test/migration/**/*.test.ts',
  // SQLite through better-sqlite3 (test/adapters/sql-databases.ts opens every engine).
  'test/adapters/sql-*.test.ts',
  'test/adapters/migrate-cli.test.ts',
  'test/adapters/account-tokens.test.ts',
  'test/docs/code-samples.test.ts',
  // TypeScript's compiler API (typescript-api) strips the types of the passkey helper.
  'test/pages/passkey-client-source.test.ts',
]

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: more workers only make the service-backed suites contend.
    maxWorkers: 2,
    reporters: ['default'],
    projects: [
      { extends: true, test: { name: 'core', include: ['test/**/*.test.ts'], exclude: toolchainTests } },
      {
        extends: true,
        test: { name: 'toolchain', include: toolchainTests, globalSetup: ['./tools/toolchain-setup.mjs'] },
      },
    ],
  },
})
