/**
 * The one suite every flow store passes. Stores differ in a single capability, stated by the caller: whether
 * `consume` is single-use. A server-side store hands a record out once; the cookie store cannot (a cookie value can
 * be sent again), and the suite asserts that difference explicitly rather than skipping it.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FlowRecord, FlowStore } from '../../../src/types/flow-store.js'

export interface FlowStoreUnderTest {
  store: FlowStore
  /** A store of the same kind that must not read `store`'s refs (another secret, another key prefix). */
  foreign: FlowStore
  close?: () => Promise<void>
}

export interface FlowStoreCapabilities {
  /** `consume` returns a record to one caller only, across replays and concurrent calls. */
  singleUse: boolean
}

const nowSeconds = () => Math.floor(Date.now() / 1000)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** A record shaped like an OAuth flow waiting at the provider: random values, a callback URL, a state name. */
export function sampleRecord(overrides: Partial<FlowRecord> = {}): FlowRecord {
  const now = nowSeconds()
  return {
    v: 2,
    m: 'oauth',
    s: 'awaitingCallback',
    c: {
      providerId: 'oidc',
      state: randomBytes(32).toString('base64url'),
      nonce: randomBytes(32).toString('base64url'),
      pkceVerifier: randomBytes(32).toString('base64url'),
      callbackUrl: '/dashboard?tab=profile&name=Zoë',
      startedAt: now,
      attempts: [1, 2],
    },
    x: now + 600,
    ...overrides,
  }
}

/**
 * The ref with one character changed, away from the end of a base64url segment (the last character of a segment can
 * carry padding bits only, so changing it may not change the bytes).
 */
export function tamper(ref: string, position: number): string {
  const segments = ref.split('.')
  const longest = segments.reduce((best, s, i) => (s.length > segments[best].length ? i : best), 0)
  const segment = segments[longest]
  const index = Math.min(Math.max(position, 0), segment.length - 2)
  const swapped = segment[index] === 'A' ? 'B' : 'A'
  segments[longest] = segment.slice(0, index) + swapped + segment.slice(index + 1)
  return segments.join('.')
}

/** Strings no store may treat as a ref, nor throw on. */
const garbageRefs = [
  '',
  'x',
  'null',
  '{}',
  '*',
  'authchart:flow:*',
  '../../etc/passwd',
  'a.b.c.d.e',
  '....',
  ' '.repeat(30),
  'A'.repeat(22),
  'A'.repeat(21) + 'B',
  'é'.repeat(22),
  'A'.repeat(5000),
  '\u0000'.repeat(22),
]

/** Registers the conformance suite for one store. */
export function flowStoreConformance(
  name: string,
  setup: () => Promise<FlowStoreUnderTest>,
  capabilities: FlowStoreCapabilities,
): void {
  describe(`flow store conformance: ${name}`, () => {
    let subject: FlowStoreUnderTest
    let store: FlowStore
    beforeAll(async () => {
      subject = await setup()
      store = subject.store
    })
    afterAll(async () => {
      await subject?.close?.()
    })

    it('loads what it saved, unchanged', async () => {
      const record = sampleRecord()
      const ref = await store.save(record, null)
      expect(typeof ref).toBe('string')
      expect(ref.length).toBeGreaterThan(0)
      expect(await store.load(ref)).toEqual(record)
    })

    it('loading does not remove the record', async () => {
      const record = sampleRecord()
      const ref = await store.save(record, null)
      expect(await store.load(ref)).toEqual(record)
      expect(await store.load(ref)).toEqual(record)
    })

    it('gives distinct refs to distinct saves', async () => {
      const refs = await Promise.all(Array.from({ length: 10 }, () => store.save(sampleRecord(), null)))
      expect(new Set(refs).size).toBe(10)
    })

    it('a save with prevRef returns a ref to the new record', async () => {
      const first = sampleRecord({ s: 'authorizing' })
      const second = sampleRecord({ s: 'linkingAccount' })
      const firstRef = await store.save(first, null)
      const secondRef = await store.save(second, firstRef)
      expect(await store.load(secondRef)).toEqual(second)
      if (capabilities.singleUse) {
        expect(await store.load(firstRef)).toBeNull()
      } else {
        // A client-held ref cannot be revoked: the old value still opens, and its expiry is what bounds it.
        expect(await store.load(firstRef)).toEqual(first)
      }
    })

    it('a record whose expiry has passed is not returned', async () => {
      const ref = await store.save(sampleRecord({ x: nowSeconds() - 1 }), null)
      expect(await store.load(ref)).toBeNull()
      expect(await store.consume(ref)).toBeNull()
    })

    it('a record is gone once its lifetime elapses', async () => {
      const record = sampleRecord({ x: nowSeconds() + 2 })
      const ref = await store.save(record, null)
      expect(await store.load(ref)).toEqual(record)
      await sleep(record.x * 1000 - Date.now() + 150)
      expect(await store.load(ref)).toBeNull()
      expect(await store.consume(ref)).toBeNull()
    })

    it('consume returns the record', async () => {
      const record = sampleRecord()
      const ref = await store.save(record, null)
      expect(await store.consume(ref)).toEqual(record)
    })

    if (capabilities.singleUse) {
      it('consume returns the record once; later consumes and loads find nothing', async () => {
        const record = sampleRecord()
        const ref = await store.save(record, null)
        expect(await store.consume(ref)).toEqual(record)
        expect(await store.consume(ref)).toBeNull()
        expect(await store.load(ref)).toBeNull()
      })

      it('20 concurrent consumes: exactly one gets the record', async () => {
        const record = sampleRecord()
        const ref = await store.save(record, null)
        const results = await Promise.all(Array.from({ length: 20 }, () => store.consume(ref)))
        const winners = results.filter((r) => r !== null)
        expect(winners).toEqual([record])
        expect(results.filter((r) => r === null)).toHaveLength(19)
      })
    } else {
      it('consume is not single-use: a replayed ref yields the record again', async () => {
        const record = sampleRecord()
        const ref = await store.save(record, null)
        expect(await store.consume(ref)).toEqual(record)
        expect(await store.consume(ref)).toEqual(record)
        expect(await store.load(ref)).toEqual(record)
      })

      it('20 concurrent consumes all get the record (replay protection lies elsewhere)', async () => {
        const record = sampleRecord()
        const ref = await store.save(record, null)
        const results = await Promise.all(Array.from({ length: 20 }, () => store.consume(ref)))
        expect(results).toEqual(Array.from({ length: 20 }, () => record))
      })
    }

    it('a ref from another store of the same kind is unknown', async () => {
      const record = sampleRecord()
      const foreignRef = await subject.foreign.save(record, null)
      expect(await subject.foreign.load(foreignRef)).toEqual(record)
      expect(await store.load(foreignRef)).toBeNull()
      expect(await store.consume(foreignRef)).toBeNull()
      const ownRef = await store.save(record, null)
      expect(await subject.foreign.load(ownRef)).toBeNull()
    })

    it('garbage refs load as null and never throw', async () => {
      for (const ref of garbageRefs) {
        expect(await store.load(ref), JSON.stringify(ref.slice(0, 40))).toBeNull()
        expect(await store.consume(ref), JSON.stringify(ref.slice(0, 40))).toBeNull()
      }
    })

    it('a tampered ref is unknown, and tampering does not touch the original', async () => {
      const record = sampleRecord()
      const ref = await store.save(record, null)
      for (const position of [0, 5, 11, 17, Math.floor(ref.length / 2), ref.length]) {
        const forged = tamper(ref, position)
        expect(forged).not.toBe(ref)
        expect(await store.load(forged)).toBeNull()
        expect(await store.consume(forged)).toBeNull()
      }
      expect(await store.load(ref.slice(0, -1))).toBeNull()
      expect(await store.load(ref + 'A')).toBeNull()
      expect(await store.load(ref)).toEqual(record)
    })
  })
}
