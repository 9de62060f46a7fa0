// The import rules of docs/architecture.md, checked by `npm run deps:check`.
// The rules follow the folder tree: src/types/ (leaf of shared types), src/flow/ with its stores in src/flow/stores/,
// src/effects/<flow>/, adapters/ (the adapters) with the adapter types in src/types/adapters.ts.
// `import type` edges are recorded (tsPreCompilationDeps), so a type-only cycle is still a cycle, and "type-only"
// permissions below really mean `import type`.
// Run it as `npm run deps:check`: a bare `npx depcruise` finds TypeScript 7, which has no compiler API, and then
// silently cruises 0 TypeScript modules. The script loads tools/typescript-api.mjs, which hands it TypeScript 6.

/** Shared types: one leaf. The public `authchart/types` is src/types/index.ts; the symbol keys and the refusal codes
 * (named by machines, logger and security alike) live here too. */
const TYPES = ['^src/types/']
/** The public `authchart/types` entry. */
const TYPES_ENTRY = '^src/types/index\\.ts$'
const ERRORS = '^src/errors\\.ts$'
const LOGGER = '^src/logger\\.ts$'
const SECURITY = '^src/security/'
const SESSION = '^src/session/'
/** The public provider modules (`authchart/providers`, `authchart/providers/<id>`): only providers live here. */
const PROVIDERS = '^src/providers/'
/** What the provider modules share (option merging, endpoint reading, request helpers): never a public subpath. */
const PROVIDERS_INTERNAL = '^src/providers-internal/'
const MACHINES = '^machines/'
/** The flow runtime and its stores (src/flow/stores/). */
const FLOW = ['^src/flow/']
const FLOW_STORES = '^src/flow/stores/'
/** The sealing the cookie flow store shares with the session cookie: JWE and its key derivation. */
const SESSION_SEALING = '^src/session/(jwe|hkdf-keys)\\.ts$'
/** The JWT codec (public `authchart/jwt`) that session tokens are encoded with. */
const JWT_CODEC = '^src/jwt\\.ts$'
const EFFECTS = '^src/effects/'
/** The second-factor primitives (TOTP, recovery codes, the sealed secret, the enrolment QR): no I/O, no adapter. */
const FACTORS = '^src/factors/'
const CORE = '^src/core/'
const FRAMEWORKS = '^src/frameworks/'
const CLI = '^src/cli/'
/** The code that is published (dist/): everything but tests, benchmarks and examples. */
const LIBRARY = '^(src|machines|adapters|visualizations)/'
const npm = (...names) => `(^|/)node_modules/(${names.join('|')})/`
/** Packages the adapters are written for: the optional peer dependencies in package.json. */
const ADAPTER_PEERS = npm('ioredis', 'kysely', 'pg', 'mysql2', 'better-sqlite3')

/** A rule that lets `from` import only `allowed` (plus node builtins) among the repository's own code and npm. */
const only = (name, comment, from, allowed, { npmAllowed = null, fromNot = undefined } = {}) => ({
  name,
  comment,
  severity: 'error',
  from: fromNot ? { path: from, pathNot: fromNot } : { path: from },
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
      fromNot: TYPES_ENTRY,
    }),
    only(
      'types-entry',
      'src/types/index.ts (the public `authchart/types`) also names the JWT types through the public `authchart/jwt` module, so augmenting that module reaches every app.',
      TYPES_ENTRY,
      [TYPES, JWT_CODEC],
      { npmAllowed: '^$' },
    ),
    typeOnly(
      'types-entry-jwt-types-only',
      'src/types/index.ts takes only types from src/jwt.ts.',
      TYPES_ENTRY,
      JWT_CODEC,
    ),
    {
      name: 'types-no-builtins-at-run-time',
      comment: 'src/types/ may name node types (import type) but loads no module.',
      severity: 'error',
      from: { path: TYPES },
      to: { dependencyTypes: ['core'], dependencyTypesNot: ['type-only'] },
    },
    only(
      'flow-runtime',
      'src/flow/ (the one runtime): machines, security, types, errors, logger, its stores, xstate; not core, not effects.',
      FLOW,
      [FLOW, MACHINES, SECURITY, TYPES, ERRORS, LOGGER],
      { npmAllowed: npm('xstate', '@opentelemetry/api'), fromNot: FLOW_STORES },
    ),
    only(
      'flow-stores',
      'src/flow/stores/ (where waiting flows are kept): security, types, errors, logger, the session sealing (JWE, key derivation) and ioredis; not the runtime.',
      FLOW_STORES,
      [FLOW_STORES, SECURITY, TYPES, ERRORS, LOGGER, SESSION_SEALING],
      { npmAllowed: npm('ioredis') },
    ),
    {
      name: 'effects-allowed',
      comment:
        'src/effects/ may import providers (and their shared helpers), security, session, the factor primitives, types, errors, logger and (types from) flow and machines; never the core config.',
      severity: 'error',
      from: { path: EFFECTS },
      to: {
        path: '^(src|machines|adapters|visualizations)/',
        pathNot: [
          EFFECTS,
          PROVIDERS,
          PROVIDERS_INTERNAL,
          SECURITY,
          SESSION,
          ...TYPES,
          ERRORS,
          LOGGER,
          ...FLOW,
          MACHINES,
          FACTORS,
        ],
      },
    },
    typeOnly('effects-flow-types-only', 'src/effects/ takes only types from src/flow/.', EFFECTS, FLOW),
    typeOnly(
      'effects-machines-types-only',
      'src/effects/ takes only types from machines/ (the command contracts its handlers implement).',
      EFFECTS,
      MACHINES,
    ),
    {
      name: 'session-allowed',
      comment:
        'src/session/ may import security, types, errors, logger and the JWT codec (src/jwt.ts); never the core config.',
      severity: 'error',
      from: { path: SESSION },
      to: {
        path: '^(src|machines|adapters|visualizations)/',
        pathNot: [SESSION, SECURITY, ...TYPES, ERRORS, LOGGER, JWT_CODEC],
      },
    },
    only(
      'factors-are-pure',
      'src/factors/ (the second-factor primitives) computes only: security, the session sealing (JWE, key derivation), types, errors, otpauth and qrcode; no adapter, no flow, no I/O.',
      FACTORS,
      [FACTORS, SECURITY, SESSION_SEALING, TYPES, ERRORS],
      { npmAllowed: npm('otpauth', 'qrcode') },
    ),
    {
      name: 'factors-serve-core-and-effects',
      comment: 'src/factors/ serves the core and the effects; no other published part imports it.',
      severity: 'error',
      from: { path: LIBRARY, pathNot: [FACTORS, CORE, EFFECTS] },
      to: { path: FACTORS },
    },
    {
      name: 'providers-internal-stays-inside',
      comment:
        'src/providers-internal/ serves the provider modules, the core, the effects and the `authchart/limits` entry (src/limits.ts); no other published part reaches into it.',
      severity: 'error',
      from: { path: LIBRARY, pathNot: [PROVIDERS, PROVIDERS_INTERNAL, CORE, EFFECTS, '^src/limits\\.ts$'] },
      to: { path: PROVIDERS_INTERNAL },
    },
    {
      name: 'providers-internal-below-providers',
      comment: 'src/providers-internal/ holds building blocks: it never imports a provider module.',
      severity: 'error',
      from: { path: PROVIDERS_INTERNAL },
      to: { path: PROVIDERS },
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
    // The fixtures (frameworks, types, migration) are apps of their own, built or compiled by their tests, not our modules.
    exclude: {
      path: ['^dist/', '^coverage/', '^test-artifacts/', '^test/(frameworks/.+|types|migration)/fixture-[^/]*/'],
    },
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
