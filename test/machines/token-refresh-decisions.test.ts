/**
 * The token refresh machine decides whether a refresh's result is fresh enough to hand out (docs/token-refresh.md):
 * the handler reports when the result was made, when its access token expires and whether it brought a newer refresh
 * token; a result kept from an earlier refresh that has run short since sends the request on to that newer token.
 */
import { transition } from 'xstate'
import { describe, expect, it } from 'vitest'
import { maxFollowedRefreshes, tokenRefreshMachine, type TokenRefreshEvent } from '../../machines/token-refresh.js'

const now = 1_700_000_000

function refreshingWith(context: { margin: number; followed?: number }) {
  return tokenRefreshMachine.resolveState({ value: 'refreshing', context: { providerId: 'idp', now, ...context } })
}

function refreshed(fields: Partial<Extract<TokenRefreshEvent, { type: 'TOKENS_REFRESHED' }>>): TokenRefreshEvent {
  return { type: 'TOKENS_REFRESHED', hasAccessToken: true, refreshedAt: now, hasNewerRefreshToken: true, ...fields }
}

/** The commands the transition asks the runtime to run, by name. */
function commandsOf(actions: ReadonlyArray<{ type: string }>): string[] {
  return actions.map((action) => action.type).filter((type) => type === 'refreshTokens' || type === 'saveTokens')
}

describe('token refresh: is the result fresh enough', () => {
  it('a kept result that has run short since is not handed out: the newer refresh token is exchanged next', () => {
    const [next, actions] = transition(
      tokenRefreshMachine,
      refreshingWith({ margin: 60 }),
      refreshed({ refreshedAt: now - 100, expiresAt: now + 30 }),
    )
    expect(next.value).toBe('refreshing')
    expect(next.context.followed).toBe(1)
    expect(commandsOf(actions)).toEqual(['refreshTokens'])
  })

  it('so is a kept result without an access token (the session store’s newer tokens tell no time)', () => {
    const [next] = transition(
      tokenRefreshMachine,
      refreshingWith({ margin: 60 }),
      refreshed({ refreshedAt: 0, hasAccessToken: false }),
    )
    expect(next.value).toBe('refreshing')
  })

  it('a kept result whose access token outlives the margin is handed out', () => {
    const [next, actions] = transition(
      tokenRefreshMachine,
      refreshingWith({ margin: 60 }),
      refreshed({ refreshedAt: now - 100, expiresAt: now + 61 }),
    )
    expect(next.value).toBe('saving')
    expect(next.context.expiresAt).toBe(now + 61)
    expect(commandsOf(actions)).toEqual(['saveTokens'])
  })

  it('the margin is the app’s: the same kept result is fresh enough with a smaller one', () => {
    const event = refreshed({ refreshedAt: now - 100, expiresAt: now + 30 })
    expect(transition(tokenRefreshMachine, refreshingWith({ margin: 60 }), event)[0].value).toBe('refreshing')
    expect(transition(tokenRefreshMachine, refreshingWith({ margin: 10 }), event)[0].value).toBe('saving')
  })

  it('a result made for this request is handed out however short the provider made it', () => {
    const [next] = transition(
      tokenRefreshMachine,
      refreshingWith({ margin: 60 }),
      refreshed({ refreshedAt: now, expiresAt: now + 5 }),
    )
    expect(next.value).toBe('saving')
  })

  it('a kept result that ran short without a newer refresh token is handed out (nothing else to exchange)', () => {
    const [next] = transition(
      tokenRefreshMachine,
      refreshingWith({ margin: 60 }),
      refreshed({ refreshedAt: now - 100, expiresAt: now + 30, hasNewerRefreshToken: false }),
    )
    expect(next.value).toBe('saving')
  })

  it(`follows at most ${maxFollowedRefreshes} newer refresh tokens in one request`, () => {
    const event = refreshed({ refreshedAt: now - 100, expiresAt: now + 30 })
    let state = refreshingWith({ margin: 60 })
    for (let followed = 1; followed <= maxFollowedRefreshes; followed++) {
      state = transition(tokenRefreshMachine, state, event)[0]
      expect(state.value).toBe('refreshing')
      expect(state.context.followed).toBe(followed)
    }
    expect(transition(tokenRefreshMachine, state, event)[0].value).toBe('saving')
  })
})
