/**
 * A private `redis-server` on a spare loopback port, for tests and benchmarks that stop, pause or fill Redis and so
 * must never touch the shared instance. No persistence: a restart comes back empty, like a crashed cache.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from './ports.js'

export interface PrivateRedis {
  readonly host: '127.0.0.1'
  readonly port: number
  readonly url: string
  /** Pid of the current server process (changes on restart). */
  readonly pid: number
  /** Stops the server by its pid and waits for it to exit. `SIGKILL` simulates a crash. */
  stop(signal?: NodeJS.Signals): Promise<void>
  /** Starts a fresh server on the same port. */
  restart(): Promise<void>
}

/**
 * Resolves when the `redis-server` binary runs here, rejects with the reason otherwise: a probe for
 * `describeWithService` (test/support/services.ts), so private-server suites skip or fail like the others.
 */
export async function probeRedisServerBinary(): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const child = spawn('redis-server', ['--version'], { stdio: 'ignore' })
    child.once('error', (err) => reject(new Error(`redis-server cannot be run: ${err.message}`)))
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`redis-server --version exited with ${code}`)),
    )
  })
}

/** Whether the `redis-server` binary can be run here; the reason when it cannot. */
export async function redisServerAvailable(): Promise<{ ok: true } | { ok: false; reason: string }> {
  try {
    await probeRedisServerBinary()
    return { ok: true }
  } catch (err) {
    return { ok: false, reason: err instanceof Error ? err.message : String(err) }
  }
}

/** A port nobody listens on right now, outside the range `listen(0)` draws from (see ports.ts). */
export const sparePort = freePort

/** Sends one inline command on a raw socket and resolves with the first reply line. */
function rawCommand(port: number, command: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port })
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error('timed out'))
    }, timeoutMs)
    let reply = ''
    socket.once('error', (err) => {
      clearTimeout(timer)
      reject(err)
    })
    socket.on('data', (chunk) => {
      reply += chunk.toString('utf8')
      if (reply.includes('\r\n')) {
        clearTimeout(timer)
        socket.end()
        resolve(reply.slice(0, reply.indexOf('\r\n')))
      }
    })
    socket.write(command + '\r\n')
  })
}

async function waitForPong(port: number, child: ChildProcess, deadlineMs: number): Promise<void> {
  const until = Date.now() + deadlineMs
  for (;;) {
    if (child.exitCode !== null) throw new Error(`redis-server on port ${port} exited with ${child.exitCode}`)
    try {
      if ((await rawCommand(port, 'PING', 500)) === '+PONG') return
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`redis-server on port ${port} did not answer within ${deadlineMs} ms`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => child.once('exit', () => resolve()))
}

/**
 * Starts `redis-server --port N --save '' --appendonly no` on a spare port (or `port`) and waits until it answers.
 * `extraArgs` go on the command line as they are (for example `['--rename-command', 'GETDEL', '']`).
 * With `sentinelOf`, the process is a Sentinel monitoring that master (Sentinel needs a config file it can rewrite).
 */
export async function startRedisServer(
  options: { port?: number; extraArgs?: string[]; sentinelOf?: { name: string; port: number } } = {},
): Promise<PrivateRedis> {
  const port = options.port ?? (await sparePort())
  let child: ChildProcess
  // Its own working directory, so files a server writes (a cluster's nodes.conf) go away with it.
  let dir: string

  const launch = async () => {
    dir = await mkdtemp(join(tmpdir(), 'authchart-redis-'))
    const sentinel = options.sentinelOf
    const configFile = join(dir, 'sentinel.conf')
    if (sentinel) await writeFile(configFile, `sentinel monitor ${sentinel.name} 127.0.0.1 ${sentinel.port} 1\n`)
    const args = [
      ...(sentinel ? [configFile, '--sentinel'] : []),
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
      '--daemonize',
      'no',
      '--loglevel',
      'warning',
      ...(options.extraArgs ?? []),
    ]
    child = spawn('redis-server', args, { stdio: 'ignore' })
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve)
      child.once('error', reject)
    })
    await waitForPong(port, child, 5000)
  }
  await launch()

  return {
    host: '127.0.0.1',
    port,
    url: `redis://127.0.0.1:${port}`,
    get pid() {
      return child.pid ?? -1
    },
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      const done = exited(child)
      if (child.pid !== undefined && child.exitCode === null && child.signalCode === null)
        process.kill(child.pid, signal)
      await done
      await rm(dir, { recursive: true, force: true })
    },
    async restart() {
      if (child.exitCode === null && child.signalCode === null)
        throw new Error('restart() needs the server stopped first')
      await launch()
    },
  }
}
