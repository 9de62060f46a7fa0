import { describe, expect, it } from 'vitest'
import { OpenedTokens } from '../../src/session/opened-tokens.js'
import { openSessionToken, openedTokensOf, sealSessionToken } from '../../src/session/session-jwe.js'

/** A token-shaped string: five segments, the last one standing for the tag (43 characters, as a real one has). */
const tokenLike = (body: string, tag: string) => `eyJhbGciOiJkaXIifQ..aXY.${body}.${tag.padEnd(43, 'x')}`

/** Replaces one character in the middle of a segment with another base64url character. */
function alterSegment(token: string, index: number): string {
  const parts = token.split('.')
  const segment = parts[index]
  const middle = Math.floor(segment.length / 2)
  parts[index] = `${segment.slice(0, middle)}${segment[middle] === 'A' ? 'B' : 'A'}${segment.slice(middle + 1)}`
  return parts.join('.')
}

describe('OpenedTokens', () => {
  it('gives back the plaintext of a remembered token, and nothing for others', () => {
    const memo = new OpenedTokens()
    memo.remember(tokenLike('Y2lwaGVy', 'dGFn'), '{"sub":"1"}')
    expect(memo.get(tokenLike('Y2lwaGVy', 'dGFn'))).toBe('{"sub":"1"}')
    expect(memo.get(tokenLike('Y2lwaGVy', 'dGFo'))).toBeUndefined()
    // Same start of the tag (the filing key), another end: still not the remembered token.
    expect(memo.get(tokenLike('Y2lwaGVy', 'dGFnyyyyyyyyyyyyyyyyyy'))).toBeUndefined()
    expect(memo.get('no-dots-at-all')).toBeUndefined()
    expect(memo.get('ends.with.a.dot.')).toBeUndefined()
    memo.remember('a.b.c.d.short-tag', '{}')
    expect(memo.size).toBe(1)
  })

  it('matches the whole token, not only the tag it is filed under', () => {
    const memo = new OpenedTokens()
    memo.remember(tokenLike('Y2lwaGVy', 'dGFn'), '{"sub":"1"}')
    // Same tag, another ciphertext of the same length: a forgery that reuses a seen tag must not be served.
    expect(memo.get(tokenLike('Y2lwaGVz', 'dGFn'))).toBeUndefined()
    expect(memo.get(tokenLike('Y2lwaGVyAA', 'dGFn'))).toBeUndefined()
  })

  it('does not fold characters beyond U+00FF onto the bytes of a remembered token', () => {
    const memo = new OpenedTokens()
    memo.remember(tokenLike('Y2lwaGVy', 'dGFn'), '{"sub":"1"}')
    // U+0159 has 0x59 ("Y") as its low byte: a latin1 comparison would take it for the remembered token.
    expect(memo.get(tokenLike('\u01592lwaGVy', 'dGFn'))).toBeUndefined()
  })

  it('holds at most its capacity, the oldest entries leaving first', () => {
    const memo = new OpenedTokens(3)
    for (const n of [1, 2, 3, 4]) memo.remember(tokenLike('Y2lw', `T${n}`), `{"n":${n}}`)
    expect(memo.size).toBe(3)
    expect(memo.get(tokenLike('Y2lw', 'T1'))).toBeUndefined()
    expect(memo.get(tokenLike('Y2lw', 'T4'))).toBe('{"n":4}')
  })

  it('evicts in filing order round after round, a token filed again keeping its place', () => {
    const memo = new OpenedTokens(3)
    for (const n of [1, 2, 3]) memo.remember(tokenLike('Y2lw', `T${n}`), `{"n":${n}}`)
    // Filed again: it stays the oldest, so it is the next to go.
    memo.remember(tokenLike('Y2lw', 'T1'), '{"n":1}')
    memo.remember(tokenLike('Y2lw', 'T4'), '{"n":4}')
    expect(memo.get(tokenLike('Y2lw', 'T1'))).toBeUndefined()
    // Three more rounds of the ring: each new token pushes out the oldest of the three held, never a newer one.
    for (let n = 5; n <= 13; n++) {
      memo.remember(tokenLike('Y2lw', `T${n}`), `{"n":${n}}`)
      expect(memo.size).toBe(3)
      expect(memo.get(tokenLike('Y2lw', `T${n - 3}`))).toBeUndefined()
      for (const held of [n - 2, n - 1, n]) expect(memo.get(tokenLike('Y2lw', `T${held}`))).toBe(`{"n":${held}}`)
    }
  })

  it('leaves very long tokens out', () => {
    const memo = new OpenedTokens()
    const long = tokenLike('A'.repeat(5000), 'dGFn')
    memo.remember(long, '{}')
    expect(memo.size).toBe(0)
    expect(memo.get(long)).toBeUndefined()
  })
})

describe('session tokens and the memo', () => {
  const secrets = ['opened-tokens-test-secret-opened-tokens-test']
  const salt = 'authjs.session-token'
  const now = 1_900_000_000

  it('remembers a sealed token, and still applies the clock when it is read back', () => {
    const memo = openedTokensOf(secrets, salt)
    const token = sealSessionToken(secrets, salt, { sub: 'u-1' }, 60, now)
    expect(memo.get(token)).toBeDefined()
    expect(openSessionToken<{ sub: string }>(secrets, salt, token, now + 30)?.sub).toBe('u-1')
    // Expired: the memo keeps the plaintext, the verdict is reached again on every read.
    expect(openSessionToken(secrets, salt, token, now + 60 + 16)).toBeNull()
  })

  it('remembers a token only once it has opened, and never a tampered one', () => {
    const otherSalt = 'opened-tokens-test.session-token'
    const memo = openedTokensOf(secrets, otherSalt)
    const token = sealSessionToken(secrets, otherSalt, { sub: 'u-2' }, 60, now)
    // Sealed under another salt, then presented here: it does not open, and is not remembered.
    const foreign = sealSessionToken(secrets, 'another-salt', { sub: 'u-3' }, 60, now)
    expect(openSessionToken(secrets, otherSalt, foreign, now)).toBeNull()
    expect(memo.get(foreign)).toBeUndefined()
    // The remembered token with its ciphertext changed and its tag kept: refused, and the memo does not grow.
    const before = memo.size
    const tampered = alterSegment(token, 3)
    expect(openSessionToken(secrets, otherSalt, tampered, now)).toBeNull()
    expect(memo.size).toBe(before)
    expect(openSessionToken<{ sub: string }>(secrets, otherSalt, token, now)?.sub).toBe('u-2')
  })

  it('opens a token it did not seal (another instance wrote it) and remembers it', () => {
    const writer = ['opened-tokens-test-secret-opened-tokens-test']
    const token = sealSessionToken(writer, 'instance-a', { sub: 'u-4' }, 60, now)
    // Another process: same secret, a different array, so a different key ring with an empty memo.
    const reader = [...writer]
    expect(openedTokensOf(reader, 'instance-a').get(token)).toBeUndefined()
    expect(openSessionToken<{ sub: string }>(reader, 'instance-a', token, now)?.sub).toBe('u-4')
    expect(openedTokensOf(reader, 'instance-a').get(token)).toBeDefined()
  })
})
