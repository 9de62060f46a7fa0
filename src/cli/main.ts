/** The `authchart` command line: `authchart diagram ...`, `authchart migrate ...`. */

const usage = `usage: authchart <command> [options]

commands:
  diagram [--format mermaid|dot|html|markdown] [--out dir] [--config path]   write the flow diagrams of the machines
  migrate --dialect postgres|mysql|sqlite --url <url or file>       create the SQL schema where it is missing
`

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  switch (command) {
    case 'diagram': {
      const { runDiagramCommand } = await import('./diagram.js')
      return runDiagramCommand(rest)
    }
    case 'migrate': {
      const { runMigrateCommand } = await import('./migrate.js')
      return runMigrateCommand(rest)
    }
    case undefined:
    case '-h':
    case '--help':
      process.stdout.write(usage)
      return command === undefined ? 2 : 0
    default:
      process.stderr.write(`authchart: unknown command "${command}"\n${usage}`)
      return 2
  }
}

process.exitCode = await main(process.argv.slice(2))
