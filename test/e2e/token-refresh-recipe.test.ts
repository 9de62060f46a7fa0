/**
 * The refresh recipe of Auth.js's guide ("Refresh Token Rotation", JWT strategy) keeps working unchanged on
 * Authchart: the app's `jwt` callback copies the account's tokens into the token at sign-in and refreshes them itself
 * when they expire, and its `session` callback shows `token.error`. Run against a real `oidc-provider` with refresh
 * tokens rotated on every use and access tokens that live 2 seconds. The callbacks below follow the recipe's logic
 * step by step; only the token endpoint and client are this test's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decode } from '../../src/jwt.js'
import OIDC from '../../src/providers/oidc.js'
import type { AuthConfig, JWT, Session } from '../../src/types/index.js'
import { CookieJar, csrfToken, origin, secret, send, session, testConfig } from '../support/auth-harness.js'
import { startOidcProvider, type RunningOidcProvider } from '../support/oidc-provider.js'

const client = { id: 'recipe-app', secret: 'recipe-app-secret' }
const accessTokenTtl = 2
const sessionCookie = 'authjs.session-token'

let op: RunningOidcProvider

beforeAll(async () => {
  op = await startOidcProvider({
    clients: [
      {
        client_id: client.id,
        client_secret: client.secret,
        redirect_uris: [`${origin}/auth/callback/idp`],
        grant_types: ['authorization_code', 'refresh_token'],
        // The recipe sends the client's id and secret in the form body.
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    refreshTokens: { rotate: true },
    accessTokenTtl,
  })
})

afterAll(async () => {
  await op?.close()
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const outliveAccessToken = () => sleep((accessTokenTtl + 1.1) * 1000)

interface RecipeToken extends JWT {
  access_token?: string
  expires_at?: number
  refresh_token?: string
  error?: 'RefreshTokenError'
}

/** The recipe's two callbacks, as an app following the guide writes them. */
const recipeCallbacks: AuthConfig['callbacks'] = {
  async jwt({ token, account }) {
    const current = token as RecipeToken
    if (account) {
      // First sign-in: keep the access token, its expiry and the refresh token.
      return {
        ...current,
        access_token: account.access_token,
        expires_at: account.expires_at,
        refresh_token: account.refresh_token,
      }
    } else if (Date.now() < (current.expires_at ?? 0) * 1000) {
      // Later requests, while the access token is still valid.
      return current
    } else {
      // The access token has expired: refresh it.
      if (!current.refresh_token) throw new TypeError('Missing refresh_token')
      try {
        const response = await fetch(`${op.issuer}/token`, {
          method: 'POST',
          body: new URLSearchParams({
            client_id: client.id,
            client_secret: client.secret,
            grant_type: 'refresh_token',
            refresh_token: current.refresh_token,
          }),
        })
        const tokensOrError: unknown = await response.json()
        if (!response.ok) throw tokensOrError
        const newTokens = tokensOrError as { access_token: string; expires_in: number; refresh_token?: string }
        return {
          ...current,
          access_token: newTokens.access_token,
          expires_at: Math.floor(Date.now() / 1000 + newTokens.expires_in),
          // Keep the old refresh token when the provider sends no new one.
          refresh_token: newTokens.refresh_token ? newTokens.refresh_token : current.refresh_token,
        }
      } catch {
        // The recipe logs the error here; the page then asks the user to sign in again.
        current.error = 'RefreshTokenError'
        return current
      }
    }
  },
  session({ session, token }) {
    return { ...session, error: (token as RecipeToken).error }
  },
}

function recipeConfig(tokenRefresh = false) {
  return testConfig({
    providers: [
      OIDC({
        id: 'idp',
        name: 'IdP',
        issuer: op.issuer,
        clientId: client.id,
        clientSecret: client.secret,
        client: { token_endpoint_auth_method: 'client_secret_post' },
        authorization: { params: { scope: 'openid profile email offline_access', prompt: 'consent' } },
        tokenRefresh,
      }),
    ],
    callbacks: recipeCallbacks,
  })
}

async function signIn(config: AuthConfig): Promise<CookieJar> {
  const jar = new CookieJar()
  const token = await csrfToken(config, jar)
  const started = await send(config, '/auth/signin/idp', { jar, form: { csrfToken: token, callbackUrl: '/' } })
  const result = await op.signInAs(started.headers.get('location') as string, 'alice')
  if (result.mode !== 'query') throw new Error('expected a query response')
  await send(config, `${result.callbackUrl.pathname}${result.callbackUrl.search}`, { jar })
  return jar
}

async function tokenOf(jar: CookieJar): Promise<RecipeToken> {
  const token = await decode<RecipeToken>({ token: jar.cookies.get(sessionCookie), secret, salt: sessionCookie })
  if (!token) throw new Error('no session token')
  return token
}

async function opAccepts(token: string | undefined): Promise<boolean> {
  return (await fetch(`${op.issuer}/me`, { headers: { authorization: `Bearer ${token}` } })).status === 200
}

describe("Auth.js's refresh recipe in the jwt callback", () => {
  it('refreshes an expired access token on the session check, and the rotated refresh token works next time', async () => {
    const config = recipeConfig()
    const jar = await signIn(config)
    const signedIn = await tokenOf(jar)
    expect(signedIn.access_token).toBeTruthy()
    expect(signedIn.refresh_token).toBeTruthy()
    const before = op.tokenRequests('refresh_token')
    await session(config, jar)
    expect(op.tokenRequests('refresh_token')).toBe(before)

    await outliveAccessToken()
    const first = (await session(config, jar)) as Session & { error?: string }
    expect(first.error).toBeUndefined()
    expect(op.tokenRequests('refresh_token')).toBe(before + 1)
    const refreshed = await tokenOf(jar)
    expect(refreshed.access_token).not.toBe(signedIn.access_token)
    expect(refreshed.refresh_token).not.toBe(signedIn.refresh_token)
    expect(await opAccepts(refreshed.access_token)).toBe(true)

    await outliveAccessToken()
    const second = (await session(config, jar)) as Session & { error?: string }
    expect(second.error).toBeUndefined()
    expect(op.tokenRequests('refresh_token')).toBe(before + 2)
    expect(await opAccepts((await tokenOf(jar)).access_token)).toBe(true)
  })

  it('a refused refresh shows as session.error = "RefreshTokenError"', async () => {
    const config = recipeConfig()
    const jar = await signIn(config)
    await op.revoke((await tokenOf(jar)).refresh_token as string, client)
    await outliveAccessToken()
    expect(((await session(config, jar)) as { error?: string }).error).toBe('RefreshTokenError')
  })

  it("keeps its own fields apart from Authchart's when the provider also has tokenRefresh", async () => {
    const config = recipeConfig(true)
    const jar = await signIn(config)
    const token = await tokenOf(jar)
    const kept = (token['authchart:tokens'] as Record<string, RecipeToken>).idp
    expect(token.access_token).toBeTruthy()
    expect(kept?.access_token).toBe(token.access_token)
    expect(kept?.refresh_token).toBe(token.refresh_token)
    expect(Object.keys(token)).toEqual(
      expect.arrayContaining(['access_token', 'expires_at', 'refresh_token', 'authchart:tokens']),
    )
  })
})
