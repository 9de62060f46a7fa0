/**
 * `authchart diagram`: writes the diagrams of the machines as an app configures them, so the app's own guards
 * (`config.flows`) show on the charts.
 *
 * ```
 * authchart diagram [--format mermaid|dot|html|markdown] [--out dir] [--config path]
 * ```
 * `--config` loads the app's `AuthConfig` from a module: its default export, or an export named `authConfig` or
 * `config`, as the object or as a function returning it. A TypeScript config loads through the project's own tsx
 * (resolved from the working directory); without tsx the command says to install it.
 * @module cli/diagram
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { machineRegistry } from '../../machines/index.js'
import type { MachineEntry } from '../../machines/machine-entry.js'
import { describeEntry, toDot, toFlowsMarkdown, toInspectorHtml, toMermaid } from '../../visualizations/index.js'
import { AuthError } from '../errors.js'
import type { AuthConfig } from '../types/index.js'
import { configureMachines } from '../flow/extend-machines.js'

const formats = ['mermaid', 'dot', 'html', 'markdown'] as const
type Format = (typeof formats)[number]

const usage = `usage: authchart diagram [--format mermaid|dot|html|markdown] [--out dir] [--config path]
  --format   mermaid (default): one .mmd file per machine; dot: one .dot file per machine;
             html: flow-inspector.html, a self-contained page; markdown: flows.md with every Mermaid chart
  --out      directory to write into (default: diagrams)
  --config   module exporting the app's AuthConfig (default export, or \`authConfig\` or \`config\`; the object or a
             function returning it); its \`flows\` guards are applied`

/** Where the command reads and writes; replaceable in tests. */
export interface DiagramCommandOptions {
  registry?: Record<string, MachineEntry>
  cwd?: string
  stdout?: (line: string) => void
  stderr?: (line: string) => void
}

interface ParsedArgs {
  format: Format
  out: string
  config: string | null
}

function parseArgs(argv: readonly string[]): ParsedArgs | string {
  const parsed: ParsedArgs = { format: 'mermaid', out: 'diagrams', config: null }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined]
    if (flag === '--help' || flag === '-h') return ''
    if (flag !== '--format' && flag !== '--out' && flag !== '--config') return `unknown argument: ${arg}`
    const value = inline ?? argv[++i]
    if (value === undefined || value === '') return `${flag} needs a value`
    if (flag === '--format') {
      if (!(formats as readonly string[]).includes(value))
        return `unknown format: ${value} (expected ${formats.join(', ')})`
      parsed.format = value as Format
    } else if (flag === '--out') {
      parsed.out = value
    } else {
      parsed.config = value
    }
  }
  return parsed
}

/** What an app's config module may export, in the order they are looked for. */
const configExports = ['default', 'authConfig', 'config'] as const

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}

/** An env reader with the shape of Qwik City's `event.env`, for a config written as a function of it. */
const envReader = { get: (name: string): string | undefined => process.env[name] }

function isConfig(value: unknown): value is Pick<AuthConfig, 'flows' | 'logger'> {
  return isRecord(value) && Array.isArray(value.providers)
}

/**
 * The project's own tsx, when it has one: its `tsImport` loads one TypeScript module (and what it imports) without
 * registering a loader for the whole process. Resolved from the working directory, as `npx authchart` runs there,
 * so an installed authchart needs no TypeScript toolchain of its own.
 */
async function projectTsImport(): Promise<((specifier: string, parentURL: string) => Promise<unknown>) | undefined> {
  // require.resolve would answer tsx's CommonJS entry; its ES module entry is read from its package.json's exports.
  let apiPath: string
  try {
    const manifestPath = createRequire(join(process.cwd(), 'package.json')).resolve('tsx/package.json')
    const manifest: unknown = JSON.parse(await readFile(manifestPath, 'utf8'))
    const entry = isRecord(manifest) && isRecord(manifest.exports) ? manifest.exports['./esm/api'] : undefined
    const esm = isRecord(entry) && isRecord(entry.import) ? entry.import.default : undefined
    if (typeof esm !== 'string') return undefined
    apiPath = join(dirname(manifestPath), esm)
  } catch {
    return undefined
  }
  const api: unknown = await import(pathToFileURL(apiPath).href)
  const tsImport = isRecord(api) ? api.tsImport : undefined
  if (typeof tsImport !== 'function') return undefined
  return async (specifier, parentURL) => {
    const loaded: unknown = await Reflect.apply(tsImport, undefined, [specifier, parentURL])
    return loaded
  }
}

/**
 * Imports the config module. Node does not load TypeScript by itself: a `.ts` config that plain `import()` refuses
 * (ERR_UNKNOWN_FILE_EXTENSION) is loaded through the project's tsx when it has one, and otherwise answered with what
 * to do instead of Node's bare "Unknown file extension".
 */
async function importConfigModule(configPath: string): Promise<unknown> {
  try {
    return await import(pathToFileURL(configPath).href)
  } catch (error) {
    if (!isRecord(error) || error.code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw error
    const tsImport = await projectTsImport()
    if (tsImport) return tsImport(pathToFileURL(configPath).href, import.meta.url)
    throw new Error(
      `${configPath} is TypeScript, which Node does not load by itself: install tsx in the project ` +
        '(npm install -D tsx; authchart then loads the config through it), or point --config at a JavaScript module',
      { cause: error },
    )
  }
}

/**
 * The app's config from its module, in the shapes the docs show: the default export, or an export named
 * `authConfig` or `config`; the object, or a function returning it (called with an env reader, as
 * `authConfig(event.env)` is in the Qwik guide, and awaited). An object export wins over a function export, so no
 * function is called when the module exports the config itself; an export that is neither an object with
 * `providers` nor a function is passed over (`export default { fetch }` beside `export const authConfig`).
 */
async function loadFlows(configPath: string): Promise<Pick<AuthConfig, 'flows' | 'logger'>> {
  const module = await importConfigModule(configPath)
  const exports = isRecord(module) ? module : {}
  for (const name of configExports) {
    const candidate = exports[name]
    if (isConfig(candidate)) return candidate
  }
  for (const name of configExports) {
    const candidate = exports[name]
    if (typeof candidate !== 'function') continue
    const config: unknown = await (candidate as (env: typeof envReader) => unknown)(envReader)
    if (isConfig(config)) return config
    const received = isRecord(config) ? 'an object without providers' : typeof config
    throw new Error(
      `${configPath}: the function exported as \`${name}\` must return the AuthConfig (an object with \`providers\`); it returned ${received}`,
    )
  }
  const found = Object.keys(exports).sort()
  throw new Error(
    `${configPath}: no AuthConfig found (exports: ${found.length > 0 ? found.join(', ') : 'none'}); export it as the default export, \`authConfig\` or \`config\`: an object with \`providers\`, or a function returning one`,
  )
}

function render(format: Format, entries: MachineEntry[]): Array<{ file: string; text: string }> {
  const graphs = entries.map(describeEntry)
  switch (format) {
    case 'mermaid':
      return graphs.map((g) => ({ file: `${g.machineId}.mmd`, text: toMermaid(g) }))
    case 'dot':
      return graphs.map((g) => ({ file: `${g.machineId}.dot`, text: toDot(g) }))
    case 'html':
      return [{ file: 'flow-inspector.html', text: toInspectorHtml(graphs) }]
    case 'markdown':
      return [{ file: 'flows.md', text: toFlowsMarkdown(graphs) }]
  }
}

/**
 * Runs `authchart diagram` with the arguments after the command name.
 * @returns the process exit code: 0 written, 1 failed (bad config, unwritable directory), 2 bad arguments
 */
export async function runDiagramCommand(argv: string[], options: DiagramCommandOptions = {}): Promise<number> {
  const stdout = options.stdout ?? ((line: string) => console.log(line))
  const stderr = options.stderr ?? ((line: string) => console.error(line))
  const cwd = options.cwd ?? process.cwd()
  const args = parseArgs(argv)
  if (typeof args === 'string') {
    if (args) stderr(`authchart diagram: ${args}`)
    ;(args ? stderr : stdout)(usage)
    return args ? 2 : 0
  }
  try {
    let registry = options.registry ?? machineRegistry
    if (args.config !== null) {
      const config = await loadFlows(resolve(cwd, args.config))
      registry = configureMachines(registry, config.flows)
    }
    const outDir = resolve(cwd, args.out)
    await mkdir(outDir, { recursive: true })
    for (const { file, text } of render(args.format, Object.values(registry))) {
      const path = resolve(outDir, file)
      await writeFile(path, text, 'utf8')
      stdout(`wrote ${path}`)
    }
    return 0
  } catch (err) {
    const message =
      err instanceof AuthError ? `${err.type}: ${err.message}` : err instanceof Error ? err.message : String(err)
    stderr(`authchart diagram: ${message}`)
    return 1
  }
}
