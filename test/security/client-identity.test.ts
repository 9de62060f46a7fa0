/**
 * Finding 4 of the limits review: with `trustHost` on, the per-client limits keyed a client by the last
 * `X-Forwarded-For` hop even when no proxy stood in front, so a direct client that rotated or omitted the header
 * escaped them. The client is now the socket's peer unless the config names `trustedProxies`.
 */
import { describe, expect, it } from 'vitest'
import express from 'express'
import { clientAddress } from '../../src/core/client-address.js'
import { ExpressAuth } from '../../src/frameworks/express.js'
import Credentials from '../../src/providers/credentials.js'
import { scalarText } from '../../src/security/scalar-text.js'
import type { AuthConfig } from '../../src/types/index.js'
import { http, startApp } from '../frameworks/express-http.js'
import { CookieJar, send, testConfig, users } from '../support/auth-harness.js'

describe('clientAddress', () => {
  it('is the peer when no proxy is trusted, whatever the header says', () => {
    expect(clientAddress('203.0.113.9', '198.51.100.1', undefined)).toBe('203.0.113.9')
    expect(clientAddress('::ffff:203.0.113.9', null, undefined)).toBe('203.0.113.9')
    expect(clientAddress('2001:db8::1', '198.51.100.1', 0)).toBe('2001:db8::1')
    expect(clientAddress(undefined, '198.51.100.1', 1)).toBeUndefined()
  })

  it('walks X-Forwarded-For from the right through a count of trusted hops', () => {
    expect(clientAddress('10.0.0.1', '6.6.6.6, 203.0.113.9', 1)).toBe('203.0.113.9')
    expect(clientAddress('10.0.0.1', '6.6.6.6, 203.0.113.9, 10.0.0.2', 2)).toBe('203.0.113.9')
    // More hops trusted than the header holds: the leftmost hop, never past it.
    expect(clientAddress('10.0.0.1', '203.0.113.9', 5)).toBe('203.0.113.9')
    expect(clientAddress('10.0.0.1', null, 1)).toBe('10.0.0.1')
  })

  it('walks through listed proxy addresses and CIDR ranges only (IPv4 and IPv6)', () => {
    const proxies = ['10.0.0.0/8', '2001:db8:ffff::/48', '192.0.2.7']
    expect(clientAddress('10.1.2.3', '6.6.6.6, 203.0.113.9, 192.0.2.7', proxies)).toBe('203.0.113.9')
    expect(clientAddress('2001:db8:ffff::5', '2001:db8::42', proxies)).toBe('2001:db8::42')
    // A peer that is not a listed proxy is the client, whatever it forwarded.
    expect(clientAddress('198.51.100.4', '6.6.6.6', proxies)).toBe('198.51.100.4')
    expect(clientAddress('::ffff:10.0.0.1', '203.0.113.9', proxies)).toBe('203.0.113.9')
  })
})

function limitedConfig(overrides: Partial<AuthConfig> = {}) {
  const calls = { authorize: 0 }
  const provider = Credentials({
    credentials: { username: { label: 'Username' }, password: { label: 'Password', type: 'password' } },
    bruteForce: { maxFailures: 100, maxClientFailures: 3 },
    authorize: (credentials) => {
      calls.authorize += 1
      const entry = users[scalarText(credentials.username)]
      return entry && entry.password === credentials.password ? entry.user : null
    },
  })
  return { config: testConfig({ providers: [provider], trustHost: true, ...overrides }), calls }
}

async function guessOverHttp(port: number, username: string, headers: Record<string, string>) {
  const jar = new CookieJar()
  const csrf = await http(port, '/auth/csrf', { jar, headers: { host: 'localhost:3000', ...headers } })
  const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string }
  const answer = await http(port, '/auth/callback/credentials', {
    jar,
    headers: { host: 'localhost:3000', ...headers },
    form: { username, password: 'guess', csrfToken },
  })
  return String(answer.headers.location)
}

describe('the per-client limit over HTTP through ExpressAuth, with only the attacker’s headers', () => {
  it('a direct client rotating X-Forwarded-For is one client: its fourth guess is refused', async () => {
    const { config, calls } = limitedConfig()
    const app = await startApp((a) => a.use('/auth', ExpressAuth(config)))
    try {
      const answers: string[] = []
      for (let i = 0; i < 6; i++)
        answers.push(await guessOverHttp(app.port, `user-${i}`, { 'x-forwarded-for': `198.51.100.${i}` }))
      expect(calls.authorize).toBe(3)
      expect(answers.slice(3).every((location) => location.includes('too_many_attempts'))).toBe(true)
    } finally {
      await app.close()
    }
  })

  it('a direct client omitting the header is still limited', async () => {
    const { config, calls } = limitedConfig()
    const app = await startApp((a) => a.use('/auth', ExpressAuth(config)))
    try {
      for (let i = 0; i < 5; i++) await guessOverHttp(app.port, `user-${i}`, {})
      expect(calls.authorize).toBe(3)
    } finally {
      await app.close()
    }
  })

  it("behind a proxy Express trusts ('trust proxy'), each forwarded client has its own budget", async () => {
    const { config, calls } = limitedConfig()
    const app = await startApp(
      (a) => a.use('/auth', ExpressAuth(config)),
      () => express().set('trust proxy', 'loopback'),
    )
    try {
      for (let i = 0; i < 5; i++) await guessOverHttp(app.port, `user-${i}`, { 'x-forwarded-for': '203.0.113.9' })
      expect(calls.authorize).toBe(3)
      // Another client behind the same proxy is not locked out.
      await guessOverHttp(app.port, 'user-x', { 'x-forwarded-for': '203.0.113.10' })
      expect(calls.authorize).toBe(4)
    } finally {
      await app.close()
    }
  })

  it('with trustedProxies in the config, the hop the trusted proxy appended is the client', async () => {
    const { config, calls } = limitedConfig({ trustedProxies: ['127.0.0.1', '::1'] })
    const app = await startApp((a) => a.use('/auth', ExpressAuth(config)))
    try {
      for (let i = 0; i < 4; i++)
        await guessOverHttp(app.port, `user-${i}`, { 'x-forwarded-for': `6.6.6.${i}, 203.0.113.9` })
      expect(calls.authorize).toBe(3)
      await guessOverHttp(app.port, 'user-x', { 'x-forwarded-for': '203.0.113.10' })
      expect(calls.authorize).toBe(4)
    } finally {
      await app.close()
    }
  })
})

describe('a trustedProxies setting that cannot be used', () => {
  it('is a configuration error naming the entry', async () => {
    const { config } = limitedConfig({ trustedProxies: ['10.0.0.0/8', 'proxy.internal'] })
    const response = await send(config, '/auth/session')
    expect(response.status).toBe(500)
    expect(config.recorded.errors.map((e) => e.message).join()).toContain('"proxy.internal" is not an IP address')
  })
})
