/**
 * Finding 4 of the limits review: with `trustHost` on, the per-client limits keyed a client by the last
 * `X-Forwarded-For` hop even when no proxy stood in front, so a direct client that rotated or omitted the header
 * escaped them. The client is now the socket's peer unless the config names `trustedProxies`.
 */
import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import express from 'express'
import { clientAddress, clientLimitKey, trustedProxiesProblem } from '../../src/core/client-address.js'
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

  it('reads a peer that is already in its canonical form without parsing it, with the same answer as parsing', () => {
    // With a proxy list the peer is not on, the peer is parsed and written back: the answer the fast path must equal.
    const parsed = (peer: string) => clientAddress(peer, null, ['198.18.0.1'])
    const octets = ['0', '7', '10', '99', '100', '199', '200', '249', '250', '255', '256', '300', '00', '01', '010']
    const peers: string[] = []
    for (const a of octets) for (const b of ['0', '255', '01', '256']) peers.push(`${a}.${b}.1.${a}`, `1.2.${b}.${a}`)
    for (const peer of [...peers])
      peers.push(`::ffff:${peer}`, `::FFFF:${peer}`, ` ${peer}`, `${peer} `, `::ffff: ${peer}`)
    peers.push('1.2.3', '1.2.3.4.5', '::ffff:', '::1', '2001:db8::1', 'fe80::1%eth0', '/run/app.sock', '1.2.3.4:80')
    for (const peer of peers) expect(clientAddress(peer, null, undefined), peer).toBe(parsed(peer))
    expect(clientAddress('203.0.113.9', null, undefined)).toBe('203.0.113.9')
    expect(clientAddress('::ffff:203.0.113.9', null, [])).toBe('203.0.113.9')
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

  it("knows Express's names loopback, linklocal and uniquelocal, netmasks and IPv4-mapped ranges", () => {
    expect(clientAddress('127.0.0.1', '203.0.113.9', ['loopback'])).toBe('203.0.113.9')
    expect(clientAddress('::1', '203.0.113.9', ['loopback'])).toBe('203.0.113.9')
    expect(clientAddress('fe80::1%eth0', '203.0.113.9', ['linklocal'])).toBe('203.0.113.9')
    expect(clientAddress('169.254.1.1', '203.0.113.9', ['LinkLocal'])).toBe('203.0.113.9')
    const local = ['uniquelocal']
    expect(clientAddress('172.20.0.3', '203.0.113.9, 192.168.1.1', local)).toBe('203.0.113.9')
    expect(clientAddress('fd00::5', '2001:db8::9', local)).toBe('2001:db8::9')
    // 172.32/16 lies outside 172.16.0.0/12: that peer is the client.
    expect(clientAddress('172.32.0.3', '203.0.113.9', local)).toBe('172.32.0.3')
    expect(clientAddress('10.9.9.9', '203.0.113.9', ['10.0.0.0/255.0.0.0'])).toBe('203.0.113.9')
    expect(clientAddress('10.9.9.9', '203.0.113.9', ['::ffff:10.0.0.0/104'])).toBe('203.0.113.9')
  })

  it('normalises addresses: IPv4-mapped IPv6 is IPv4, IPv6 in its RFC 5952 form, a port dropped from a hop', () => {
    expect(clientAddress('::FFFF:203.0.113.9', null, undefined)).toBe('203.0.113.9')
    expect(clientAddress('2001:DB8:0:0:0:0:0:1', null, undefined)).toBe('2001:db8::1')
    expect(clientAddress('10.0.0.1', '::ffff:203.0.113.9', 1)).toBe('203.0.113.9')
    expect(clientAddress('10.0.0.1', '203.0.113.9:51000', 1)).toBe('203.0.113.9')
    expect(clientAddress('10.0.0.1', '[2001:db8::7]:443', 1)).toBe('2001:db8::7')
  })

  it('stops at a hop that is no address: the proxy that passed it on is the client', () => {
    expect(clientAddress('10.0.0.1', 'junk-1, 203.0.113.9', 2)).toBe('203.0.113.9')
    expect(clientAddress('10.0.0.1', 'unknown', 1)).toBe('10.0.0.1')
    expect(clientAddress('10.0.0.1', '010.0.0.1', ['10.0.0.0/8'])).toBe('10.0.0.1')
  })

  it('refuses a trustedProxies entry that names no address, range or known name', () => {
    expect(trustedProxiesProblem(['loopback', '10.0.0.0/8', 'fc00::/7', '192.0.2.7'])).toBeUndefined()
    for (const entry of [
      'proxy.internal',
      '10.0.0.0/33',
      '10.0.0.0/255.0.255.0',
      '::/129',
      '10.0.0.1/8/1',
      'local',
      'constructor',
    ])
      expect(trustedProxiesProblem([entry]), entry).toContain(`"${entry}" is not an IP address`)
    expect(trustedProxiesProblem(-1)).toMatch(/whole number/)
  })
})

describe('clientLimitKey', () => {
  it('keys an IPv4 client by its address and an IPv6 client by its /64', () => {
    expect(clientLimitKey('203.0.113.9')).toBe('203.0.113.9')
    expect(clientLimitKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64')
    expect(clientLimitKey('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64')
    expect(clientLimitKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64')
    expect(clientLimitKey('::ffff:203.0.113.9')).toBe('203.0.113.9')
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

describe('an IPv6 client is one client across its /64', () => {
  async function guess(config: AuthConfig, username: string, peer: string) {
    const jar = new CookieJar()
    const csrf = await send(config, '/auth/csrf', { jar, peer })
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    await send(config, '/auth/callback/credentials', { jar, peer, form: { username, password: 'guess', csrfToken } })
  }

  it('addresses picked from one /64 share its budget; another /64 has its own', async () => {
    const { config, calls } = limitedConfig()
    for (let i = 1; i <= 5; i++) await guess(config, `user-${i}`, `2001:db8:1:2::${i.toString(16)}:${i}`)
    expect(calls.authorize).toBe(3)
    await guess(config, 'user-x', '2001:db8:1:3::1')
    expect(calls.authorize).toBe(4)
    // The IPv4 client of a dual-stack socket is keyed as the IPv4 address it is.
    const mapped = limitedConfig()
    for (let i = 0; i < 2; i++) await guess(mapped.config, `user-${i}`, '::ffff:203.0.113.9')
    for (let i = 2; i < 4; i++) await guess(mapped.config, `user-${i}`, '203.0.113.9')
    expect(mapped.calls.authorize).toBe(3)
  })
})

interface Listening {
  port: number
  close(): Promise<void>
}

async function listen(server: Server): Promise<Listening> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections()
        server.close((err) => (err ? reject(err) : resolve()))
      }),
  }
}

/**
 * A reverse proxy as nginx's `proxy_add_x_forwarded_for` sets one up: it appends the address of the client it saw
 * to whatever X-Forwarded-For the client sent, and forwards the request to the app.
 */
function reverseProxy(appPort: number): Server {
  return createServer((req, res) => {
    const sent = req.headers['x-forwarded-for']
    const peer = req.socket.remoteAddress ?? ''
    const forwardedFor = sent ? `${String(sent)}, ${peer}` : peer
    const upstream = httpRequest(
      {
        host: '127.0.0.1',
        port: appPort,
        path: req.url,
        method: req.method,
        headers: { ...req.headers, 'x-forwarded-for': forwardedFor },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      },
    )
    upstream.on('error', () => res.writeHead(502).end())
    req.pipe(upstream)
  })
}

describe('behind a real reverse proxy, with trustedProxies naming it', () => {
  async function guessFrom(port: number, username: string, client: string, headers: Record<string, string> = {}) {
    const jar = new CookieJar()
    const base = { host: 'localhost:3000', ...headers }
    const csrf = await http(port, '/auth/csrf', { jar, headers: base, localAddress: client })
    const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string }
    const answer = await http(port, '/auth/callback/credentials', {
      jar,
      headers: base,
      localAddress: client,
      form: { username, password: 'guess', csrfToken },
    })
    return String(answer.headers.location)
  }

  for (const trustedProxies of [['127.0.0.1'], 1] as const) {
    it(`the client the proxy saw is the client, its forged hops ignored (trustedProxies ${JSON.stringify(trustedProxies)})`, async () => {
      const { config, calls } = limitedConfig({ trustedProxies })
      const app = await startApp((a) => a.use('/auth', ExpressAuth(config)))
      const proxy = await listen(reverseProxy(app.port))
      try {
        // The attacker (127.0.0.2) rotates a forged X-Forwarded-For: the proxy appends 127.0.0.2 after it.
        const answers: string[] = []
        for (let i = 0; i < 5; i++)
          answers.push(await guessFrom(proxy.port, `user-${i}`, '127.0.0.2', { 'x-forwarded-for': `198.51.100.${i}` }))
        expect(calls.authorize).toBe(3)
        expect(answers.slice(3).every((location) => location.includes('too_many_attempts'))).toBe(true)
        // Another client behind the same proxy (127.0.0.3) keeps its own budget.
        expect(await guessFrom(proxy.port, 'user-y', '127.0.0.3')).not.toContain('too_many_attempts')
        expect(calls.authorize).toBe(4)
      } finally {
        await proxy.close()
        await app.close()
      }
    })
  }

  it('without trustedProxies every client behind the proxy is the proxy: one budget, whatever the header says', async () => {
    const { config, calls } = limitedConfig()
    const app = await startApp((a) => a.use('/auth', ExpressAuth(config)))
    const proxy = await listen(reverseProxy(app.port))
    try {
      for (let i = 0; i < 3; i++) await guessFrom(proxy.port, `user-${i}`, '127.0.0.2')
      expect(await guessFrom(proxy.port, 'user-y', '127.0.0.3')).toContain('too_many_attempts')
      expect(calls.authorize).toBe(3)
    } finally {
      await proxy.close()
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
