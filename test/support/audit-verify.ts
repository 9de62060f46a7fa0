/** `authchart audit verify` run in-process against a database URL, with what it printed kept for assertions. */
import { runAuditCommand } from '../../src/cli/audit.js'

export interface AuditVerifyRun {
  code: number
  out: string
  err: string
}

/** Runs `authchart audit verify --url <url>` (the dialect inferred from the URL, as from a shell). */
export async function verifyCommand(url: string): Promise<AuditVerifyRun> {
  const out: string[] = []
  const err: string[] = []
  const code = await runAuditCommand(['verify', '--url', url], {
    env: {},
    stdout: (line) => out.push(line),
    stderr: (line) => err.push(line),
  })
  return { code, out: out.join('\n'), err: err.join('\n') }
}
