/**
 * The Redis flow store on a real Redis Cluster of six `redis-server` processes (three primaries, three replicas):
 * conformance, single use across clients, and what happens when a primary dies: every call is answered within its
 * deadline, no flow is handed out twice, and the store works again once a replica has taken over.
 */
import type { Cluster } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FlowStoreUnavailable } from '../../../src/errors.js'
import type { FlowRecord } from '../../../src/types/flow-store.js'
import { RedisFlowStore } from '../../../src/flow/stores/redis.js'
import {
  boundedClusterOptions,
  probeRedisCluster,
  startRedisCluster,
  type PrivateRedisCluster,
} from '../../support/redis-cluster.js'
import { describeWithService } from '../../support/services.js'
import { flowStoreConformance, sampleRecord } from './conformance.js'

await describeWithService('a private Redis Cluster', probeRedisCluster, () =>
  describe('RedisFlowStore on a Redis Cluster (three primaries, three replicas)', () => {
    let cluster: PrivateRedisCluster
    let client: Cluster
    beforeAll(async () => {
      cluster = await startRedisCluster()
      client = cluster.client(boundedClusterOptions)
    }, 30_000)
    afterAll(async () => {
      client?.disconnect()
      await cluster?.stop()
    })

    flowStoreConformance(
      'redis cluster',
      async () => ({
        store: RedisFlowStore(client, { prefix: 'c1:' }),
        foreign: RedisFlowStore(client, { prefix: 'c2:' }),
      }),
      { singleUse: true },
    )

    it('a flow key hashes to the slot of its id alone, and flows spread over all three primaries', async () => {
      const store = RedisFlowStore(client, { prefix: 'c1:' })
      const refs = await Promise.all(Array.from({ length: 30 }, () => store.save(sampleRecord(), null)))
      const ref = refs[0]
      expect(await client.call('CLUSTER', 'KEYSLOT', `c1:{${ref}}`)).toBe(await client.call('CLUSTER', 'KEYSLOT', ref))
      const primaries = new Set(await Promise.all(refs.map(async (r) => (await cluster.primaryOf(`c1:{${r}}`)).port)))
      expect(primaries.size).toBe(3)
    })

    it('two instances on two cluster clients: 20 concurrent consumes of one flow give exactly one record, five times', async () => {
      const a = cluster.client(boundedClusterOptions)
      const b = cluster.client(boundedClusterOptions)
      try {
        const storeA = RedisFlowStore(a, { prefix: 'c3:' })
        const storeB = RedisFlowStore(b, { prefix: 'c3:' })
        for (let round = 0; round < 5; round++) {
          const record = sampleRecord()
          const ref = await storeA.save(record, null)
          const results = await Promise.all(
            Array.from({ length: 20 }, (_, i) => (i % 2 ? storeA : storeB).consume(ref)),
          )
          expect(results.filter((r) => r !== null)).toEqual([record])
        }
      } finally {
        a.disconnect()
        b.disconnect()
      }
    })

    describe('a primary fails', () => {
      // These tests kill primaries, so they run last and on a cluster of their own.
      let own: PrivateRedisCluster
      let ownClient: Cluster
      beforeAll(async () => {
        own = await startRedisCluster()
        ownClient = own.client(boundedClusterOptions)
      }, 30_000)
      afterAll(async () => {
        ownClient?.disconnect()
        await own?.stop()
      })

      /** `count` saved flows whose keys live on the primary that serves the first one. */
      async function flowsOnOnePrimary(store: ReturnType<typeof RedisFlowStore>, prefix: string, count: number) {
        const flows: { ref: string; record: FlowRecord }[] = []
        let port = -1
        while (flows.length < count) {
          const record = sampleRecord()
          const ref = await store.save(record, null)
          const primary = await own.primaryOf(`${prefix}{${ref}}`)
          if (port === -1) port = primary.port
          if (primary.port === port) flows.push({ ref, record })
        }
        return { flows, primary: own.nodes.find((node) => node.port === port)! }
      }

      it('a primary killed during concurrent consumes: each answered within its deadline, none twice, all slots work after', async () => {
        await own.waitUntilHealthy(20_000)
        const prefix = 'f2:'
        const timeoutMs = 1000
        const store = RedisFlowStore(ownClient, { prefix, operationTimeoutMs: timeoutMs })
        const { flows, primary } = await flowsOnOnePrimary(store, prefix, 40)
        const answers: { index: number; outcome: 'record' | 'null' | 'unavailable' | 'other'; ms: number }[] = []
        const consumeTimed = async (index: number) => {
          const started = Date.now()
          try {
            const record = await store.consume(flows[index].ref)
            answers.push({ index, outcome: record ? 'record' : 'null', ms: Date.now() - started })
            if (record) expect(record).toEqual(flows[index].record)
          } catch (err) {
            answers.push({
              index,
              outcome: err instanceof FlowStoreUnavailable ? 'unavailable' : 'other',
              ms: Date.now() - started,
            })
          }
        }
        // Two consumes of every flow, spread out in time; the primary dies a third of the way in.
        const calls = flows
          .flatMap((_, index) => [index, index])
          .map(async (index, i) => {
            await new Promise((resolve) => setTimeout(resolve, i * 10))
            await consumeTimed(index)
          })
        setTimeout(() => {
          void own.kill(primary)
        }, 250)
        await Promise.all(calls)

        expect(answers.filter((a) => a.outcome === 'other')).toEqual([])
        for (const answer of answers) expect(answer.ms).toBeLessThan(timeoutMs + 500)
        expect(answers.some((a) => a.outcome === 'unavailable')).toBe(true)
        const handedOut = new Map<number, number>()
        for (const a of answers) if (a.outcome === 'record') handedOut.set(a.index, (handedOut.get(a.index) ?? 0) + 1)
        expect([...handedOut.values()].every((n) => n === 1)).toBe(true)

        // After the failover: flows never handed out may be consumed now (a call the client cannot place yet fails
        // as unavailable and hands nothing out), still at most once in all.
        await own.waitUntilHealthy(20_000)
        const late = await Promise.all(
          flows.map((flow) =>
            store.consume(flow.ref).catch((err: unknown) => {
              expect(err).toBeInstanceOf(FlowStoreUnavailable)
              return null
            }),
          ),
        )
        late.forEach((record, index) => {
          if (record) handedOut.set(index, (handedOut.get(index) ?? 0) + 1)
        })
        expect([...handedOut.values()].every((n) => n === 1)).toBe(true)

        // New flows save and complete on every slot, the failed-over one included, once the client has caught up
        // with the new topology (it learns it from the nodes' redirections and its slot refresh): within seconds.
        const deadline = Date.now() + 10_000
        let failures = -1
        while (failures !== 0 && Date.now() < deadline) {
          const round = await Promise.all(
            Array.from({ length: 30 }, async () => {
              const record = sampleRecord()
              try {
                return JSON.stringify(await store.consume(await store.save(record, null))) === JSON.stringify(record)
              } catch {
                return false
              }
            }),
          )
          failures = round.filter((ok) => !ok).length
        }
        expect(failures).toBe(0)
      }, 60_000)
    })
  }),
)
