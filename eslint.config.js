// ESLint for the whole repository: type-aware typescript-eslint rules on every TypeScript file, the plain JavaScript
// rules on the few .js files, and a short list of deliberate exceptions, each with its reason.
// typescript-eslint needs TypeScript's compiler API, which the TypeScript 7 package does not ship: the first import
// gives it TypeScript 6 instead (see tools/typescript-api.mjs). Formatting is Prettier's job, not ESLint's.
import './tools/typescript-api.mjs'
import js from '@eslint/js'
import { defineConfig } from 'eslint/config'
import globals from 'globals'
import tseslint from 'typescript-eslint'

export default defineConfig(
  {
    ignores: [
      'dist/',
      'dist-bench/',
      'coverage/',
      'test-artifacts/',
      '.scratch/',
      '**/node_modules/',
      // Fixture apps and machines: deliberately odd code that tests feed to the tools.
      'test/**/fixture*/',
    ],
  },
  {
    linterOptions: {
      // A disable comment that no longer silences anything is itself a problem.
      reportUnusedDisableDirectives: 'error',
    },
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // One TypeScript program per tsconfig.json, found by the project service (the same files `npm run typecheck` sees).
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // No escape hatches from the type system.
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/ban-ts-comment': [
        'error',
        // @ts-expect-error stays allowed in tests that prove a type is refused, but must say why.
        { 'ts-ignore': true, 'ts-nocheck': true, 'ts-check': false, 'ts-expect-error': 'allow-with-description' },
      ],
      '@typescript-eslint/no-non-null-assertion': 'error',
      // A promise nobody awaits loses its rejection: an unhandled error in an auth flow is a crash or a silent skip.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: false },
      ],
      // `import type` (a statement of its own) is what dependency-cruiser reads as a type-only edge: the layer rules allow some
      // parts to take only types from others.
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { prefer: 'type-imports', fixStyle: 'separate-type-imports' },
      ],
      // Qwik City ends a handler by throwing what `event.redirect()` returns (not an Error), its documented idiom.
      '@typescript-eslint/only-throw-error': [
        'error',
        { allow: [{ from: 'package', package: '@builder.io/qwik-city', name: 'RedirectMessage' }] },
      ],
      '@typescript-eslint/prefer-promise-reject-errors': 'error',
      '@typescript-eslint/return-await': ['error', 'in-try-catch'],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      // Unused names are mistakes, except the `_`-prefixed ones kept for a signature's shape.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // Numbers and booleans in template literals are how messages and log lines are written here; objects are not.
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowNumber: true, allowBoolean: true, allowNullish: false, allowAny: false, allowRegExp: false },
      ],
      // XState's `setup({ actions, guards })` and the effect handlers take methods that are passed around by design
      // (they never use `this`), so the unbound-method check only produces noise there.
      '@typescript-eslint/unbound-method': 'off',
      // Handlers share one async signature across a table even when one of them does not await; forcing `async` off
      // would make the table irregular without catching a bug (floating promises are caught above).
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // XState declares a machine's types by assertion: `setup({ types: { context: {} as OAuthContext } })`. When every
    // field of the context is optional, the rule reads that assertion as redundant ("the receiver accepts the original
    // type"), and its autofix deletes it: the machine's context becomes `{}` and type-checking breaks. Found on
    // machines/oauth.ts by a dry run of `eslint --fix`.
    files: ['machines/**/*.ts'],
    rules: { '@typescript-eslint/no-unnecessary-type-assertion': 'off' },
  },
  {
    // Tests and benchmarks: fixtures and assertions need a little more freedom than the library.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      // `expect(x!.field)` after an assertion that x exists is the clearest way to write a test.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Tests pass vitest's `expect.any(...)`-style matchers and poke at parsed JSON bodies, whose `any` is upstream.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Diagnostic messages of tests and benchmarks should print `undefined` or `null` when that is what was there.
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowNumber: true, allowBoolean: true, allowNullish: true, allowAny: false, allowRegExp: false },
      ],
      // A focused or skipped test must never reach main: it silently shrinks the suite.
      'no-restricted-properties': [
        'error',
        ...['describe', 'it', 'test', 'suite'].flatMap((object) => [
          { object, property: 'only', message: 'A focused test must not be committed.' },
          {
            object,
            property: 'skip',
            message: 'A skipped test must not be committed; use describeWithService for services.',
          },
          { object, property: 'todo', message: 'A todo test asserts nothing.' },
        ]),
      ],
    },
  },
  {
    // Plain JavaScript (the CLI launcher and config files) is outside tsconfig.json: no type information there.
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { ...tseslint.configs.disableTypeChecked.languageOptions, globals: globals.node },
  },
  {
    // The SvelteKit components' helper runs in the browser.
    files: ['src/frameworks/sveltekit/components/**/*.js'],
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
)
