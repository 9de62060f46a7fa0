/**
 * docs/extending.md stays true: its table lists the registry's extension points, and its worked example (one e-mail
 * domain, office hours only) does what the page says when run through the real machines and runtime.
 */
import { readFileSync } from 'node:fs'
import type { EventObject } from 'xstate'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { CredentialsEvent } from '../../machines/credentials.js'
import { machineRegistry } from '../../machines/index.js'
import type { OAuthEvent } from '../../machines/oauth.js'
import type { MachineEntry } from '../../machines/machine-entry.js'
import { configureMachines } from '../../src/flow/extend-machines.js'
import type { FlowExtensions } from '../../src/types/flow-extensions.js'
import { runFlow, type EffectHandlers, type FlowResult, type ResultEvent } from '../../src/flow/runtime.js'
import { isOfficeHours, isStaff } from './fixtures/office-hours-guards.js'
import { MemoryFlowStore } from './memory-flow-store.js'

const doc = readFileSync('docs/extending.md', 'utf8')

// The example's config, as the page writes it.
const flows: FlowExtensions = {
  oauth: {
    guards: {
      allowSignIn: ({ user, now }) => isStaff(user) && isOfficeHours(now),
      allowUserCreation: ({ user }) => isStaff(user),
      allowAccountLinking: ({ user }) => isStaff(user),
    },
  },
  credentials: { guards: { allowSignIn: ({ now }) => isOfficeHours(now) } },
}
const machines = configureMachines(machineRegistry, flows)

const tuesdayTenParis = Date.UTC(2024, 2, 5, 9) / 1000 // 10:00 in Paris (UTC+1)
const saturdayTenParis = Date.UTC(2024, 2, 9, 9) / 1000
const tuesdayNightParis = Date.UTC(2024, 2, 5, 21) / 1000 // 22:00 in Paris

/** Runs requests through `runFlow()`; each command is answered from `answers`. */
async function run(
  entry: MachineEntry,
  requests: EventObject[],
  answers: Record<string, ResultEvent>,
): Promise<{ value: unknown; error: unknown }> {
  const effects: EffectHandlers = Object.fromEntries(
    Object.entries(answers).map(([command, answer]) => [command, () => answer]),
  )
  const store = new MemoryFlowStore()
  let ref: string | null = null
  let last = { value: undefined as unknown, context: {} as Record<string, unknown> }
  for (const event of requests) {
    const now = (event as { now?: number }).now ?? 0
    const result: FlowResult = await runFlow({
      entry,
      event,
      handlers: effects,
      now,
      persistence: { store, ref, maxAge: 3600 },
    })
    ref = result.ref
    last = result
  }
  return { value: last.value, error: last.context.error }
}

function credentialsSignIn(now: number): Promise<{ value: unknown; error: unknown }> {
  const submitted: CredentialsEvent[] = [
    {
      type: 'CREDENTIALS_SUBMITTED',
      providerId: 'credentials',
      callbackUrl: '/',
      csrfVerified: true,
      now,
      maxFailures: 5,
      maxClientFailures: 50,
      lockoutSeconds: 900,
      accountReadable: true,
      knownDevice: false,
    },
  ]
  return run(machines.credentials, submitted, {
    runRedirectCallback: { type: 'REDIRECT_RESOLVED', url: 'http://localhost:3000/' },
    reserveAttempt: { type: 'ATTEMPT_RESERVED', retryAfterSeconds: 0, accountFailures: 1, clientFailures: 1 },
    authorize: { type: 'AUTHORIZED', user: { id: 'u1', email: 'ada@example.com' } },
    clearFailures: { type: 'FAILURES_CLEARED' },
    runSignInCallback: { type: 'SIGNIN_ALLOWED' },
    checkSecondFactor: {
      type: 'SECOND_FACTOR_CHECKED',
      enrolled: false,
      mustEnrol: false,
      passkeyUserVerified: false,
      passkeyCountsAsTwo: true,
    },
    issueSession: { type: 'SESSION_ISSUED' },
    emitSignInEvent: { type: 'SIGNIN_ANNOUNCED' },
  })
}

function oauthSignIn(
  email: string,
  now: number,
  resolved: 'USER_NOT_FOUND' | 'SIGNED_IN_USER_FOUND' = 'USER_NOT_FOUND',
): Promise<{ value: unknown; error: unknown }> {
  // The oauth machine carries no time past the callback request, so its guards read the clock.
  vi.useFakeTimers({ toFake: ['Date'], now: now * 1000 })
  const requests: OAuthEvent[] = [
    {
      type: 'SIGNIN_STARTED',
      providerId: 'github',
      callbackUrl: '/',
      csrfVerified: true,
      now,
      expiresAt: now + 600,
      state: 's',
      nonce: 'n',
      codeVerifier: 'v',
    },
    { type: 'CALLBACK_RECEIVED', providerId: 'github', state: 's', now: now + 20, dangerousEmailLinking: false },
  ]
  return run(machines.oauth, requests, {
    runRedirectCallback: { type: 'REDIRECT_RESOLVED', url: 'http://localhost:3000/' },
    buildAuthorizationUrl: { type: 'AUTHORIZATION_URL_BUILT' },
    checkAuthorizationResponse: { type: 'AUTHORIZATION_RESPONSE_ACCEPTED' },
    exchangeCode: { type: 'CODE_EXCHANGED' },
    fetchProfile: { type: 'PROFILE_FETCHED', user: { id: 'gh-1', email } },
    runSignInCallback: { type: 'SIGNIN_ALLOWED' },
    resolveUser: { type: resolved },
    createUser: { type: 'USER_CREATED' },
    linkAccount: { type: 'ACCOUNT_LINKED' },
    checkSecondFactor: {
      type: 'SECOND_FACTOR_CHECKED',
      enrolled: false,
      mustEnrol: false,
      passkeyUserVerified: false,
      passkeyCountsAsTwo: true,
    },
    issueSession: { type: 'SESSION_ISSUED' },
    emitSignInEvent: { type: 'SIGNIN_ANNOUNCED' },
  })
}

afterEach(() => {
  vi.useRealTimers()
})

describe('docs/extending.md', () => {
  it('lists exactly the extension points of every registered machine', () => {
    const rows = [...doc.matchAll(/^\| `(\w+)`\s*\| (`(\w+)`|none)/gm)].map((m) => [m[1], m[3] ?? null] as const)
    for (const entry of Object.values(machineRegistry)) {
      const documented = rows
        .filter(([machine]) => machine === entry.id)
        .map(([, guard]) => guard)
        .filter((g) => g !== null)
      expect(documented, `extension points of ${entry.id}`).toEqual([...entry.extensionPoints])
      expect(
        rows.some(([machine]) => machine === entry.id),
        `${entry.id} has a row`,
      ).toBe(true)
    }
  })

  it('shows the guards the tests run, verbatim', () => {
    const source = readFileSync('test/flow/fixtures/office-hours-guards.ts', 'utf8')
    const shared = source
      .slice(source.indexOf('const allowedDomain'), source.indexOf('// end of the shared part'))
      .trim()
    expect(doc).toContain(shared)
  })

  it('quotes the configuration error the page promises', () => {
    const misnamed = (): unknown =>
      configureMachines(machineRegistry, { credentials: { guards: { allowUserCreation: () => true } } })
    const message = /```\n\s*InvalidFlowExtension: ([^`]+?)\n\s*```/.exec(doc)![1].replace(/\s*\n\s*/g, ' ')
    expect(misnamed).toThrow(message)
  })

  it('lets staff sign in with a password during office hours, and nobody outside them', async () => {
    expect(await credentialsSignIn(tuesdayTenParis)).toEqual({ value: 'signedIn', error: undefined })
    expect(await credentialsSignIn(saturdayTenParis)).toEqual({ value: 'failed', error: 'AccessDenied' })
    expect(await credentialsSignIn(tuesdayNightParis)).toEqual({ value: 'failed', error: 'AccessDenied' })
  })

  it('lets only the one domain sign in with GitHub, create or link an account, in office hours', async () => {
    expect(await oauthSignIn('ada@example.com', tuesdayTenParis)).toEqual({ value: 'signedIn', error: undefined })
    expect(await oauthSignIn('Ada@Example.com', tuesdayTenParis, 'SIGNED_IN_USER_FOUND')).toEqual({
      value: 'signedIn',
      error: undefined,
    })
    expect(await oauthSignIn('eve@elsewhere.test', tuesdayTenParis)).toEqual({ value: 'failed', error: 'AccessDenied' })
    expect(await oauthSignIn('ada@example.com', saturdayTenParis)).toEqual({ value: 'failed', error: 'AccessDenied' })
  })
})
