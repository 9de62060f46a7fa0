/**
 * A private Redis Cluster for tests and benchmarks: six `redis-server` processes of the machine's own binary on
 * loopback ports (three primaries, three replicas), joined with `redis-cli --cluster create`. No persistence; each
 * node's files go in one temp directory that `stop()` removes with the processes.
 *
 * Ports are probed at run time (from 30000 up, skipping any port something already listens on), because other test
 * runs share the machine; a cluster's nodes also listen on port + 10000 (the cluster bus), which is checked too.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { rmSync } from 'node:fs'
import { mkdtemp, mkdir, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Cluster, Redis, type ClusterOptions } from 'ioredis'

/** Client options that keep a dead node from holding a request: one retry, short reconnect and refresh delays. */
export const boundedClusterOptions = {
  redisOptions: { maxRetriesPerRequest: 1, connectTimeout: 500 },
  clusterRetryStrategy: () => 100,
  retryDelayOnFailover: 100,
  retryDelayOnClusterDown: 100,
  slotsRefreshTimeout: 500,
} as const

export interface ClusterNode {
  readonly port: number
  /** Pid of the node's process, or -1 once it was killed. */
  readonly pid: number
  isRunning(): boolean
}

export interface PrivateRedisCluster {
  readonly nodes: readonly ClusterNode[]
  /** `{ host, port }` of every node, for `new Cluster(startupNodes)`. */
  readonly startupNodes: { host: string; port: number }[]
  /** A connected ioredis `Cluster` client; the caller closes it. */
  client(options?: ClusterOptions): Cluster
  /** The node currently serving `key`'s slot as primary. */
  primaryOf(key: string): Promise<ClusterNode>
  /** The replica that follows `primary` (null when none does, for instance after a failover). */
  replicaOf(primary: ClusterNode): Promise<ClusterNode | null>
  /** Sends a signal to one node's process (`SIGSTOP` freezes it, `SIGCONT` lets it run on). */
  signal(node: ClusterNode, signal: NodeJS.Signals): void
  /** Kills one node's process (default `SIGKILL`, a crash) and waits for it to exit. */
  kill(node: ClusterNode, signal?: NodeJS.Signals): Promise<void>
  /** Resolves once every slot is served by a running primary again (after a failover), or rejects at the deadline. */
  waitUntilHealthy(timeoutMs?: number): Promise<void>
  /** Kills every node and removes the temp directory. Safe to call twice. */
  stop(): Promise<void>
}

/** Cluster-node timeout: how long a primary may be silent before its replica takes over. Short, for tests. */
const nodeTimeoutMs = 1000

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer()
    server.once('error', () => resolve(false))
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
  })
}

/** `count` ports, each free together with its cluster-bus port (+10000), probed from `from` upwards. */
async function freeClusterPorts(count: number, from: number): Promise<number[]> {
  const ports: number[] = []
  // Start at a random offset so two runs starting at the same moment rarely probe the same ports.
  for (let port = from + Math.floor(Math.random() * 2000); ports.length < count && port < 55535; port++) {
    if ((await portIsFree(port)) && (await portIsFree(port + 10000))) ports.push(port)
  }
  if (ports.length < count) throw new Error('no free loopback ports for a Redis Cluster')
  return ports
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => child.once('exit', () => resolve()))
}

function run(command: string, args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8')
    })
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8')
    })
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`${command} timed out:\n${output}`))
    }, timeoutMs)
    child.once('error', (err) => {
      clearTimeout(timer)
      reject(err)
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      if (code === 0) resolve(output)
      else reject(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output}`))
    })
  })
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const until = Date.now() + timeoutMs
  for (;;) {
    try {
      if (await check()) return
    } catch {
      // not yet
    }
    if (Date.now() > until) throw new Error(`${what} not within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** Asks one node a question on a short-lived connection. */
async function ask<T>(port: number, question: (client: Redis) => Promise<T>): Promise<T> {
  const client = new Redis({
    host: '127.0.0.1',
    port,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 500,
  })
  client.on('error', () => {
    /* the caller sees the failed command */
  })
  try {
    await client.connect()
    return await question(client)
  } finally {
    client.disconnect()
  }
}

/** Which port serves each slot range as primary, as one node sees it. */
async function slotPrimaries(port: number): Promise<{ first: number; last: number; port: number }[]> {
  const slots = await ask(port, (c) => c.cluster('SLOTS'))
  return slots.map(([first, last, primary]) => ({ first, last, port: primary?.[1] ?? -1 }))
}

/**
 * Starts the cluster and resolves once every node agrees that all 16384 slots are served and every replica is in
 * sync. A port probed free can be taken by another run before our server binds it, so a failed start is tried
 * again on other ports (three attempts).
 */
export async function startRedisCluster(): Promise<PrivateRedisCluster> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce()
    } catch (err) {
      if (attempt >= 3) throw err
    }
  }
}

async function startOnce(): Promise<PrivateRedisCluster> {
  const ports = await freeClusterPorts(6, 30000)
  const dir = await mkdtemp(join(tmpdir(), 'authchart-redis-cluster-'))
  const children: ChildProcess[] = []
  const killOnExit = () => {
    for (const child of children) child.kill('SIGKILL')
    rmSync(dir, { recursive: true, force: true })
  }
  // A safety net for a run that ends without its afterAll: never leave six servers behind.
  process.once('exit', killOnExit)

  const stop = async () => {
    process.off('exit', killOnExit)
    await Promise.all(
      children.map(async (child) => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
        await exited(child)
      }),
    )
    await rm(dir, { recursive: true, force: true })
  }

  try {
    for (const port of ports) {
      const nodeDir = join(dir, String(port))
      await mkdir(nodeDir)
      const child = spawn(
        'redis-server',
        [
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--save',
          '',
          '--appendonly',
          'no',
          '--dir',
          nodeDir,
          '--daemonize',
          'no',
          '--loglevel',
          'warning',
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          'nodes.conf',
          '--cluster-node-timeout',
          String(nodeTimeoutMs),
          // A replica may take over however long it lost its primary for: the tests kill primaries on purpose.
          '--cluster-replica-validity-factor',
          '0',
          // A replica's first sync starts at once instead of after the default 5 s wait for more replicas.
          '--repl-diskless-sync-delay',
          '0',
        ],
        { stdio: 'ignore' },
      )
      children.push(child)
      await new Promise<void>((resolve, reject) => {
        child.once('spawn', resolve)
        child.once('error', reject)
      })
    }
    await Promise.all(
      ports.map((port) =>
        waitFor(async () => (await ask(port, (c) => c.ping())) === 'PONG', 5000, `redis-server on ${port}`),
      ),
    )
    await run(
      'redis-cli',
      ['--cluster', 'create', ...ports.map((port) => `127.0.0.1:${port}`), '--cluster-replicas', '1', '--cluster-yes'],
      30_000,
    )
  } catch (err) {
    await stop()
    throw err
  }

  const nodes: ClusterNode[] = ports.map((port, i) => {
    const child = children[i]
    return {
      port,
      get pid() {
        return child.exitCode === null && child.signalCode === null ? (child.pid ?? -1) : -1
      },
      isRunning: () => child.exitCode === null && child.signalCode === null,
    }
  })
  const running = () => nodes.filter((node) => node.isRunning())

  /**
   * Every running node reports the cluster ok, every running replica is in sync with its primary, and every slot's
   * primary is a running node.
   */
  const healthy = async () => {
    for (const node of running()) {
      const info = await ask(node.port, (c) => c.cluster('INFO'))
      if (!/cluster_state:ok/.test(info) || !/cluster_slots_ok:16384/.test(info)) return false
      const replication = await ask(node.port, (c) => c.info('replication'))
      if (/role:slave/.test(replication) && !/master_link_status:up/.test(replication)) return false
    }
    const slots = await slotPrimaries(running()[0].port)
    const livePorts = new Set(running().map((node) => node.port))
    return slots.length > 0 && slots.every(({ port }) => livePorts.has(port))
  }
  const waitUntilHealthy = (timeoutMs = 15_000) => waitFor(healthy, timeoutMs, 'a healthy cluster')
  try {
    await waitUntilHealthy()
  } catch (err) {
    await stop()
    throw err
  }

  const startupNodes = ports.map((port) => ({ host: '127.0.0.1', port }))
  return {
    nodes,
    startupNodes,
    client: (options = {}) => new Cluster(startupNodes, options),
    async primaryOf(key) {
      const live = running()[0]
      const slot = await ask<number>(live.port, (c) => c.cluster('KEYSLOT', key))
      const slots = await slotPrimaries(live.port)
      const range = slots.find(({ first, last }) => slot >= first && slot <= last)
      const node = nodes.find((candidate) => candidate.port === range?.port)
      if (!node) throw new Error(`no primary serves slot ${slot}`)
      return node
    },
    async replicaOf(primary) {
      for (const node of running()) {
        const replication = await ask(node.port, (c) => c.info('replication'))
        if (new RegExp(`master_port:${primary.port}\\b`).test(replication)) return node
      }
      return null
    },
    signal(node, signal) {
      const child = children[nodes.indexOf(node)]
      if (!child) throw new Error('not a node of this cluster')
      child.kill(signal)
    },
    async kill(node, signal = 'SIGKILL') {
      const child = children[nodes.indexOf(node)]
      if (!child) throw new Error('not a node of this cluster')
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
      await exited(child)
    },
    waitUntilHealthy,
    stop,
  }
}

/**
 * Resolves when a cluster can be started here (`redis-server` with cluster support, and `redis-cli`), rejects with the
 * reason otherwise: a probe for `describeWithService`.
 */
export async function probeRedisCluster(): Promise<void> {
  const version = await run('redis-server', ['--version'], 5000)
  const major = Number(/v=(\d+)/.exec(version)?.[1] ?? 0)
  if (major < 6) throw new Error(`redis-server ${major} is too old (the adapter needs 6.2)`)
  await run('redis-cli', ['--version'], 5000)
}
