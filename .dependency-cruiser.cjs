// The import rules of docs/architecture.md, checked by `npm run deps:check`.
// The rules are written for the target layout (src/types/, src/flow/stores/, src/effects/<flow>/ …). Where a part
// still lives at its old path, the old path is listed beside the new one, so the same rules run on today's tree.
// `import type` edges are recorded (tsPreCompilationDeps), so a type-only cycle is still a cycle, and "type-only"
// permissions below really mean `import type`.
// Run it as `npm run deps:check`: a bare `npx depcruise` finds TypeScript 7, which has no compiler API, and then
// silently cruises 0 TypeScript modules. The script loads tools/typescript-api.mjs, which hands it TypeScript 6.

/** Shared types: one leaf. Today: src/types.ts, src/adapters.ts, src/jwt-types.ts, src/providers/provider-types.ts and
 * the symbol keys in src/symbols.ts; target: src/types/. */
const TYPES = [
  '^src/types/',
  '^src/types\\.ts$',
  '^src/adapters\\.ts$',
  '^src/jwt-types\\.ts$',
  '^src/providers/provider-types\\.ts$',
  '^src/symbols\\.ts$',
]
const ERRORS = '^src/errors\\.ts$'
const LOGGER = '^src/logger\\.ts$'
const SECURITY = '^src/security/'
const SESSION = '^src/session/'
const PROVIDERS = '^src/providers/'
const MACHINES = '^machines/'
/** The flow runtime and its stores. Today the stores sit in src/flow-stores/; target: src/flow/stores/. */
const FLOW = ['^src/flow/', '^src/flow-stores/']
const EFFECTS = '^src/effects/'
const CORE = '^src/core/'
const FRAMEWORKS = '^src/frameworks/'
const CLI = '^src/cli/'
/** The code that is published (dist/): everything but tests, benchmarks and examples. */
const LIBRARY = '^(src|machines|adapters|visualizations)/'
const npm = (...names) => `(^|/)node_modules/(${names.join('|')})/`
/** Packages the adapters are written for: the optional peer dependencies in package.json. */
const ADAPTER_PEERS = npm('ioredis', 'kysely', 'pg', 'mysql2', 'better-sqlite3')

/** A rule that lets `from` import only `allowed` (plus node builtins) among the repository's own code and npm. */
const only = (name, comment, from, allowed, { npmAllowed = null } = {}) => ({
  name,
  comment,
  severity: 'error',
  from: { path: from },
  to: {
    pathNot: [...allowed, npmAllowed ?? '(^|/)node_modules/'].flat(),
    dependencyTypesNot: ['core'],
  },
})
/** A rule that lets `from` import `to` only with `import type`. */
const typeOnly = (name, comment, from, to) => ({
  name,
  comment,
  severity: 'error',
  from: { path: from },
  to: { path: to, dependencyTypesNot: ['type-only'] },
})

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycles, type-only ones included: a cycle means two parts that are really one.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'Every import resolves to a file or an installed package.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'library-not-to-tests',
      comment: 'Published code never imports tests, benchmarks or examples.',
      severity: 'error',
      from: { path: LIBRARY },
      to: { path: '^(test|bench|examples)/' },
    },
    only(
      'machines-are-pure',
      'machines/ holds pure XState definitions: xstate, other machines, src/security/, and types from src/types/ and src/errors.ts.',
      MACHINES,
      [MACHINES, SECURITY, TYPES, ERRORS],
      { npmAllowed: npm('xstate') },
    ),
    typeOnly('machines-types-only', 'machines/ takes only types from src/types/ and src/errors.ts.', MACHINES, [
      ...TYPES,
      ERRORS,
    ]),
    {
      name: 'machines-no-builtins',
      comment: 'Machines are pure: no node builtins (no I/O, no clock, no crypto of their own).',
      severity: 'error',
      from: { path: MACHINES },
      to: { dependencyTypes: ['core'] },
    },
    only('security-is-a-leaf', 'src/security/ uses node builtins and types only.', SECURITY, [SECURITY, TYPES], {
      npmAllowed: '^$',
    }),
    typeOnly('security-types-only', 'src/security/ takes only types from src/types/.', SECURITY, TYPES),
    only('types-are-a-leaf', 'src/types/ imports nothing but other src/types/ files.', TYPES, [TYPES], {
      npmAllowed: '^$',
    }),
    {
      name: 'types-no-builtins-at-run-time',
      comment: 'src/types/ may name node types (import type) but loads no module.',
      severity: 'error',
      from: { path: TYPES },
      to: { dependencyTypes: ['core'], dependencyTypesNot: ['type-only'] },
    },
    only(
      'flow-runtime',
      'src/flow/ (the one runtime and its stores): machines, security, types, errors, logger, xstate; not core, not effects.',
      FLOW,
      [FLOW, MACHINES, SECURITY, TYPES, ERRORS, LOGGER],
      { npmAllowed: npm('xstate', 'superjson', 'ioredis') },
    ),
    {
      name: 'effects-allowed',
      comment:
        'src/effects/ may import providers, security, session, types, errors, logger and (types from) flow; never the core config.',
      severity: 'error',
      from: { path: EFFECTS },
      to: {
        path: '^(src|machines|adapters|visualizations)/',
        pathNot: [EFFECTS, PROVIDERS, SECURITY, SESSION, ...TYPES, ERRORS, LOGGER, ...FLOW],
      },
    },
    typeOnly('effects-flow-types-only', 'src/effects/ takes only types from src/flow/.', EFFECTS, FLOW),
    {
      name: 'session-allowed',
      comment: 'src/session/ may import security, types, errors and logger.',
      severity: 'error',
      from: { path: SESSION },
      to: { path: '^(src|machines|adapters|visualizations)/', pathNot: [SESSION, SECURITY, ...TYPES, ERRORS, LOGGER] },
    },
    {
      name: 'core-not-to-entry-points',
      comment: 'src/core/ may import everything inside src/ except the framework bindings and the CLI.',
      severity: 'error',
      from: { path: CORE },
      to: { path: [FRAMEWORKS, CLI] },
    },
    {
      name: 'frameworks-are-entry-points',
      comment: 'Framework bindings are entry points: nothing in the library imports them.',
      severity: 'error',
      from: { path: LIBRARY, pathNot: FRAMEWORKS },
      to: { path: FRAMEWORKS },
    },
    {
      name: 'frameworks-not-to-cli',
      comment: 'Framework bindings use src/core/ and below, not the CLI.',
      severity: 'error',
      from: { path: FRAMEWORKS },
      to: { path: CLI },
    },
    {
      name: 'cli-is-an-entry-point',
      comment: 'The CLI is an entry point (bin/authchart.js): nothing in the library imports it.',
      severity: 'error',
      from: { path: LIBRARY, pathNot: CLI },
      to: { path: CLI },
    },
    only(
      'adapters-allowed',
      'adapters/ imports only the adapter types (src/types/), src/errors.ts, its own files and its peer packages.',
      '^adapters/',
      ['^adapters/', TYPES, ERRORS],
      { npmAllowed: ADAPTER_PEERS },
    ),
    only(
      'visualizations-allowed',
      'visualizations/ draws machines: it imports machines/ (and xstate types), never the effects or the core.',
      '^visualizations/',
      ['^visualizations/', MACHINES],
      { npmAllowed: npm('xstate') },
    ),
  ],
  options: {
    // Cruised by `npm run deps:check`: src machines adapters visualizations bin bench examples test.
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^dist/', '^coverage/', '^test-artifacts/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    reporterOptions: {
      dot: { collapsePattern: '^(node_modules/[^/]+|src/[^/]+|machines|adapters|visualizations)/' },
    },
  },
}
