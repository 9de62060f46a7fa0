/**
 * The `authchart` command line: `authchart secret`, `authchart diagram`, `authchart migrate`, `authchart audit verify`, `--version`, `--help`.
 * Each command's module is imported only when that command runs, and a command imports its optional dependencies
 * (kysely and the database drivers) only once its arguments are read, so `--help` works in any install.
 */
import { packageVersion } from './version.js'

const usage = `usage: authchart <command> [options]

commands:
  secret [--raw | --write]
      print a fresh AUTH_SECRET, or write it into ./.env
  diagram [--format mermaid|dot|html|markdown] [--out dir] [--config path]
      write the flow diagrams of the machines, with the app's guards when --config names its config
  migrate [--dialect postgres|mysql|sqlite] [--url <url or file>]
      create the SQL schema of the Kysely adapter where it is missing
  audit verify [--dialect postgres|mysql|sqlite] [--url <url or file>]
      check the hash chain of the SQL audit trail; names the first deleted or edited row

options:
  -h, --help     this text; \`authchart <command> --help\` (or \`authchart help <command>\`) for one command
  -v, --version  the installed version of authchart
`

type Command = (argv: string[]) => Promise<number>

const commands: Record<string, () => Promise<Command>> = {
  secret: async () => (await import('./secret.js')).runSecretCommand,
  diagram: async () => (await import('./diagram.js')).runDiagramCommand,
  migrate: async () => (await import('./migrate.js')).runMigrateCommand,
  audit: async () => (await import('./audit.js')).runAuditCommand,
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  if (command !== undefined && Object.hasOwn(commands, command)) return (await commands[command]())(rest)
  switch (command) {
    case '-v':
    case '--version':
      process.stdout.write(`${await packageVersion()}\n`)
      return 0
    case 'help': {
      const topic = rest[0]
      if (topic !== undefined && Object.hasOwn(commands, topic)) return (await commands[topic]())(['--help'])
      if (topic !== undefined) {
        process.stderr.write(`authchart: unknown command "${topic}"\n${usage}`)
        return 2
      }
      process.stdout.write(usage)
      return 0
    }
    case '-h':
    case '--help':
      process.stdout.write(usage)
      return 0
    case undefined:
      process.stderr.write(usage)
      return 2
    default:
      process.stderr.write(`authchart: unknown command "${command}"\n${usage}`)
      return 2
  }
}

process.exitCode = await main(process.argv.slice(2))
