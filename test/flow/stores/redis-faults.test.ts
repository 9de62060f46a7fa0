/**
 * The Redis flow store when Redis misbehaves: stopped mid-request, paused, never there, closed. Each case runs on a
 * private redis-server, so the shared one is never stopped or paused.
 */
import { Redis } from 'ioredis'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { FlowStoreUnavailable } from '../../../src/errors.js'
import { RedisFlowStore } from '../../../src/flow/stores/redis.js'
import { randomToken } from '../../../src/security/random.js'
import { probeRedisServerBinary, sparePort, startRedisServer, type PrivateRedis } from '../../support/redis-server.js'
import { describeWithService } from '../../support/services.js'
import { sampleRecord } from './conformance.js'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** How long a call took and how it ended. */
async function timed<T>(call: Promise<T>): Promise<{ ms: number; ok: boolean; value?: T; error?: unknown }> {
  const start = performance.now()
  try {
    const value = await call
    return { ms: performance.now() - start, ok: true, value }
  } catch (error) {
    return { ms: performance.now() - start, ok: false, error }
  }
}

/** Pauses every client of the server from a connection of its own, as a stalled or overloaded Redis would. */
async function pauseServer(url: string, ms: number): Promise<void> {
  const admin = new Redis(url)
  await admin.call('CLIENT', 'PAUSE', String(ms), 'ALL')
  admin.disconnect()
}

await describeWithService('redis-server binary', probeRedisServerBinary, () =>
  describe('RedisFlowStore under faults', () => {
    let server: PrivateRedis
    let client: Redis
    const connectionErrors: Error[] = []
    const unhandled: unknown[] = []
    const onUnhandled = (reason: unknown) => {
      unhandled.push(reason)
    }

    beforeAll(() => {
      process.on('unhandledRejection', onUnhandled)
    })
    afterAll(() => {
      process.off('unhandledRejection', onUnhandled)
    })

    beforeEach(async () => {
      server = await startRedisServer()
      client = new Redis(server.url)
      client.on('error', (err: Error) => {
        connectionErrors.push(err)
      })
      unhandled.length = 0
    })
    afterEach(async () => {
      client.disconnect()
      await server.stop('SIGKILL')
    })

    it('Redis killed with 20 loads and saves in flight: every call fails with FlowStoreUnavailable within the timeout; a restart heals the same store', async () => {
      const timeoutMs = 600
      const store = RedisFlowStore(client, { operationTimeoutMs: timeoutMs })
      const refs = await Promise.all(Array.from({ length: 10 }, () => store.save(sampleRecord(), null)))

      // Paused first, so the 20 commands are really sitting in the server when it dies.
      await pauseServer(server.url, 10_000)
      const inFlight = [
        ...refs.map((ref) => timed(store.load(ref))),
        ...refs.map(() => timed(store.save(sampleRecord(), null))),
      ]
      await sleep(50)
      await server.stop('SIGKILL')

      const outcomes = await Promise.all(inFlight)
      for (const outcome of outcomes) {
        expect(outcome.ok).toBe(false)
        expect(outcome.error).toBeInstanceOf(FlowStoreUnavailable)
        expect(outcome.ms).toBeLessThan(timeoutMs + 400)
      }

      // While it is down, calls are refused at once rather than queued behind a dead server.
      await sleep(100)
      const whileDown = await timed(store.load(refs[0]))
      expect(whileDown.error).toBeInstanceOf(FlowStoreUnavailable)
      expect(whileDown.ms).toBeLessThan(timeoutMs + 100)

      await server.restart()
      const healedAt = performance.now()
      let ref: string | null = null
      while (ref === null) {
        if (performance.now() - healedAt > 10_000)
          throw new Error('the store did not recover within 10 s of the restart')
        ref = await store.save(sampleRecord(), null).catch((err: unknown) => {
          expect(err).toBeInstanceOf(FlowStoreUnavailable)
          return null
        })
        if (ref === null) await sleep(100)
      }
      const record = await store.load(ref)
      expect(record).not.toBeNull()
      expect(await store.consume(ref)).toEqual(record)
      expect(await store.consume(ref)).toBeNull()

      await sleep(200)
      expect(unhandled).toEqual([])
      expect(connectionErrors.length).toBeGreaterThan(0)
    })

    it('Redis stopped at a random moment under load: each call either succeeds or fails with FlowStoreUnavailable', async () => {
      const store = RedisFlowStore(client, { operationTimeoutMs: 500 })
      const ref = await store.save(sampleRecord(), null)
      // Each call gets its handler as it is made: a rejection must never wait unobserved in this test either.
      const calls: ReturnType<typeof timed>[] = []
      let stopped: Promise<void> | null = null
      let stoppedAt = -1
      // Keep the load coming until well after the server has gone, so calls land before, during and after.
      for (let batch = 0; stoppedAt < 0 || batch < stoppedAt + 20; batch++) {
        for (let i = 0; i < 10; i++) {
          calls.push(
            timed<unknown>(
              i % 3 === 0
                ? store.save(sampleRecord(), null)
                : i % 3 === 1
                  ? store.load(ref)
                  : store.consume(randomToken(16)),
            ),
          )
        }
        if (batch === 10)
          stopped = server.stop('SIGTERM').then(() => {
            stoppedAt = batch
          })
        if (batch > 2000) throw new Error('the server did not stop')
        await sleep(2)
      }
      await stopped
      const outcomes = await Promise.all(calls)
      for (const outcome of outcomes) {
        if (!outcome.ok) expect(outcome.error).toBeInstanceOf(FlowStoreUnavailable)
        expect(outcome.ms).toBeLessThan(500 + 400)
      }
      expect(outcomes.some((o) => !o.ok)).toBe(true)
      expect(outcomes.some((o) => o.ok)).toBe(true)
      await sleep(100)
      expect(unhandled).toEqual([])
    })

    it('a paused Redis (CLIENT PAUSE 3000): the configured timeout applies to load, save and consume', async () => {
      const store = RedisFlowStore(client, { operationTimeoutMs: 300 })
      const ref = await store.save(sampleRecord(), null)
      await pauseServer(server.url, 3000)
      const outcomes = await Promise.all([
        timed(store.load(ref)),
        timed(store.save(sampleRecord(), ref)),
        timed(store.consume(ref)),
      ])
      for (const outcome of outcomes) {
        expect(outcome.error).toBeInstanceOf(FlowStoreUnavailable)
        expect(outcome.ms).toBeGreaterThanOrEqual(290)
        expect(outcome.ms).toBeLessThan(1000)
      }
      expect(unhandled).toEqual([])
    })

    it('a longer timeout rides out a short pause', async () => {
      const store = RedisFlowStore(client, { operationTimeoutMs: 4000 })
      const record = sampleRecord()
      const ref = await store.save(record, null)
      await pauseServer(server.url, 800)
      const outcome = await timed(store.load(ref))
      expect(outcome.value).toEqual(record)
      expect(outcome.ms).toBeGreaterThan(500)
      expect(outcome.ms).toBeLessThan(4000)
    })

    it('a consume that timed out during a pause may still take the flow afterwards, but never hands it out twice', async () => {
      const store = RedisFlowStore(client, { operationTimeoutMs: 200 })
      const ref = await store.save(sampleRecord(), null)
      await pauseServer(server.url, 700)
      const first = await timed(store.consume(ref))
      expect(first.error).toBeInstanceOf(FlowStoreUnavailable)
      await sleep(800)
      // The GETDEL was already at the server and ran when the pause ended: the user starts again.
      expect(await store.consume(ref)).toBeNull()
      expect(await store.load(ref)).toBeNull()
    })

    it('a fresh client still connecting, and a lazy one, are waited for rather than refused', async () => {
      const fresh = new Redis(server.url)
      const lazy = new Redis(server.url, { lazyConnect: true })
      try {
        expect(fresh.status).toBe('connecting')
        expect(lazy.status).toBe('wait')
        const ref = await RedisFlowStore(fresh).save(sampleRecord(), null)
        expect(await RedisFlowStore(lazy).load(ref)).not.toBeNull()
      } finally {
        fresh.disconnect()
        lazy.disconnect()
      }
    })

    it('a Redis that was never there: calls fail within the timeout', async () => {
      const nowhere = new Redis({ host: '127.0.0.1', port: await sparePort() })
      nowhere.on('error', () => {})
      try {
        const store = RedisFlowStore(nowhere, { operationTimeoutMs: 400 })
        for (let i = 0; i < 3; i++) {
          const outcome = await timed(store.save(sampleRecord(), null))
          expect(outcome.error).toBeInstanceOf(FlowStoreUnavailable)
          expect(outcome.ms).toBeLessThan(800)
        }
      } finally {
        nowhere.disconnect()
      }
    })

    it('a client the app has closed: calls fail at once', async () => {
      const store = RedisFlowStore(client)
      const ref = await store.save(sampleRecord(), null)
      await client.quit()
      const outcome = await timed(store.load(ref))
      expect(outcome.error).toBeInstanceOf(FlowStoreUnavailable)
      expect(outcome.ms).toBeLessThan(100)
    })
  }),
)
