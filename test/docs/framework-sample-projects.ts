/**
 * How each framework guide's samples become a project of its framework (see framework-samples.ts): the compiler
 * options of the framework's own starter, the files the guide leaves to the reader, and a control that must fail.
 */
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import type { SamplesProject } from './framework-samples.js'

/**
 * SvelteKit 2 (the guide's samples use `$lib` and `$env/dynamic/private`, which SvelteKit 3 replaced).
 * `svelte-kit sync` writes `.svelte-kit/tsconfig.json` (the `$lib` alias, `rootDirs` for `./$types`), the `$env`
 * modules and the routes' `$types`, as `vite dev` or `vite build` would; the project's tsconfig extends it, as a new
 * SvelteKit app's does, with its starter's `checkJs` (svelte-check checks a component's plain `<script>` only then).
 * Each Svelte sample is a page of its own route, checked by the fixture's svelte-check (a devDependency of
 * fixture-kit2, with the TypeScript it runs on).
 */
export const sveltekitSamples: SamplesProject = {
  page: 'docs/frameworks/sveltekit.md',
  appFiles: {
    // sync reads the configuration; the adapter plays no part in the types.
    'svelte.config.js': 'export default { kit: {} }\n',
  },
  tsconfig: {
    extends: './.svelte-kit/tsconfig.json',
    compilerOptions: { allowJs: true, checkJs: true, strict: true, skipLibCheck: true, noEmit: true, types: [] },
  },
  control: {
    // The session's user is not a string: fails only if `locals.auth()` is typed (not `any`) through the hook.
    file: 'src/routes/control/+page.server.ts',
    text: [
      "import type { PageServerLoad } from './$types'",
      'export const load: PageServerLoad = async ({ locals }) => {',
      '  const user: string = (await locals.auth())?.user',
      '  return { user }',
      '}',
      '',
    ].join('\n'),
    error: 'is not assignable to type',
  },
  svelte: {
    place: (sample) => `src/routes/doc-sample-line-${sample.line}/+page.svelte`,
    control: {
      // A page like the samples' (a plain `<script>`): fails only if the component's props are typed and checked.
      file: 'src/routes/doc-sample-control/+page.svelte',
      text: [
        '<script>',
        "  import { SignIn } from 'authchart/sveltekit/components'",
        '</script>',
        '',
        '<SignIn provider={42} />',
        '',
      ].join('\n'),
      error: "Type 'number' is not assignable to type 'string'",
    },
  },
  generate(project, app) {
    // sync writes the routes' `$types` only when it can import `typescript` (the JavaScript compiler API): the
    // fixture's, installed for svelte-check.
    const result = spawnSync(process.execPath, [join(app, 'node_modules/@sveltejs/kit/svelte-kit.js'), 'sync'], {
      cwd: project,
      encoding: 'utf8',
    })
    if (result.status !== 0) throw new Error(`svelte-kit sync failed:\n${result.stdout}${result.stderr}`)
  },
}

/** Qwik City 1.x, with the compiler options of its starter (JSX of `@builder.io/qwik`). */
export const qwikSamples: SamplesProject = {
  page: 'docs/frameworks/qwik.md',
  appFiles: {
    // The server-only configuration module the guide's second plugin loads with import().
    'src/lib/auth-config.ts': [
      "import type { RequestEventCommon } from '@builder.io/qwik-city'",
      "import type { QwikAuthConfig } from 'authchart/qwik'",
      "import GitHub from 'authchart/providers/github'",
      'let config: QwikAuthConfig | undefined',
      "export function authConfig(env: RequestEventCommon['env']): QwikAuthConfig {",
      "  return (config ??= { secret: env.get('AUTH_SECRET'), providers: [GitHub] })",
      '}',
      '',
    ].join('\n'),
  },
  tsconfig: {
    compilerOptions: {
      target: 'ES2022',
      module: 'ES2022',
      moduleResolution: 'bundler',
      lib: ['ES2022', 'DOM', 'DOM.Iterable'],
      jsx: 'react-jsx',
      jsxImportSource: '@builder.io/qwik',
      strict: true,
      skipLibCheck: true,
      isolatedModules: true,
      noEmit: true,
      types: [],
      paths: { '~/*': ['./src/*'] },
    },
    include: ['src'],
  },
  control: {
    file: 'src/control.tsx',
    text: "import { useSession } from './routes/plugin@auth'\nexport const notANumber: number = useSession\n",
    error: "is not assignable to type 'number'",
  },
}

/** SolidStart (1.x and 2.x alike), with the compiler options of its starter (solid-js JSX, the `~` alias). */
export const solidStartSamples: SamplesProject = {
  page: 'docs/frameworks/solid-start.md',
  appFiles: {},
  tsconfig: {
    compilerOptions: {
      target: 'ESNext',
      module: 'ESNext',
      moduleResolution: 'bundler',
      lib: ['ESNext', 'DOM', 'DOM.Iterable'],
      jsx: 'preserve',
      jsxImportSource: 'solid-js',
      allowJs: true,
      strict: true,
      skipLibCheck: true,
      isolatedModules: true,
      noEmit: true,
      types: [],
      paths: { '~/*': ['./src/*'] },
    },
    include: ['src'],
  },
  control: {
    file: 'src/control.ts',
    text: "import { authConfig } from '~/lib/auth'\nexport const notANumber: number = authConfig\n",
    error: "is not assignable to type 'number'",
  },
}

/**
 * docs/frameworks/nextjs.md in the Next.js fixture app moved to Authchart (test/frameworks/next): Next's own types
 * (`next/server`, `next/headers`), React's JSX and Server Actions, and `@/` for the app's root, as its tsconfig has;
 * `./users` (`checkPassword`) is the reader's.
 */
export const nextjsSamples: SamplesProject = {
  page: 'docs/frameworks/nextjs.md',
  appFiles: {
    'users.ts': `export interface AppUser { id: string; name: string; email: string }
/** Looks the user up and checks the password; null when either is wrong. */
export async function checkPassword(email: unknown, password: unknown): Promise<AppUser | null> {
  return typeof email === 'string' && typeof password === 'string' ? null : null
}
`,
  },
  tsconfig: {
    compilerOptions: {
      target: 'ES2022',
      module: 'ESNext',
      moduleResolution: 'bundler',
      lib: ['DOM', 'DOM.Iterable', 'ESNext'],
      jsx: 'react-jsx',
      strict: true,
      skipLibCheck: true,
      isolatedModules: true,
      esModuleInterop: true,
      noEmit: true,
      paths: { '@/*': ['./*'] },
    },
    include: ['**/*.ts', '**/*.tsx'],
    exclude: ['node_modules'],
  },
  control: {
    file: 'control.ts',
    text: "import { auth } from '@/auth'\nexport const notANumber: number = auth\n",
    error: "is not assignable to type 'number'",
  },
}
