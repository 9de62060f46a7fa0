/**
 * getSession() when the database is down: an error named after the part that failed (AdapterError, with
 * `cause.status` 503), which the route can answer with "try again" (issue #38, point 1: it was FlowStoreUnavailable
 * although the flow store was fine).
 */
import type { AddressInfo } from 'node:net'
import express from 'express'
import { describe, expect, it } from 'vitest'
import { MemoryAdapter } from '../../adapters/memory.js'
import { AuthError } from '../../src/errors.js'
import { getSession } from '../../src/frameworks/express.js'
import { testConfig } from '../support/auth-harness.js'

describe('getSession with an unreachable session store', () => {
  it('throws AdapterError with status 503 (worth a retry), not a configuration error', async () => {
    const adapter = {
      ...MemoryAdapter(),
      getSessionAndUser: async () => {
        throw new Error('connection refused')
      },
    }
    const config = testConfig({ adapter, session: { strategy: 'database' } })
    const app = express()
    app.get('/me', async (req, res) => {
      try {
        res.json({ session: await getSession(req, config) })
      } catch (error) {
        res.status(503).json({
          type: error instanceof AuthError ? error.type : 'unknown',
          status: error instanceof AuthError ? (error.cause as { status?: number } | undefined)?.status : undefined,
        })
      }
    })
    const server = app.listen(0, '127.0.0.1')
    await new Promise((resolve) => server.once('listening', resolve))
    try {
      const { port } = server.address() as AddressInfo
      const response = await fetch(`http://127.0.0.1:${port}/me`, { headers: { cookie: 'authjs.session-token=abc' } })
      expect(response.status).toBe(503)
      expect(await response.json()).toEqual({ type: 'AdapterError', status: 503 })
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })
})
