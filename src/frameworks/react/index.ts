'use client'
/**
 * The React client (`authchart/react`), in next-auth/react's shape: `SessionProvider`, `useSession`, `signIn`,
 * `signOut`, `getSession`, `getCsrfToken`, `getProviders`. It runs in the browser (a Client Component in Next.js) and
 * talks to the auth endpoints (default `/api/auth`) through the shared browser client. React is an optional peer
 * dependency, needed only by this entry point.
 *
 * @example
 * ```tsx
 * 'use client'
 * import { SessionProvider, useSession, signIn } from 'authchart/react'
 * function Profile() {
 *   const { data, status } = useSession()
 *   return status === 'authenticated' ? <p>{data.user?.name}</p> : <button onClick={() => signIn('github')}>Sign in</button>
 * }
 * export default function Providers({ children }) { return <SessionProvider>{children}</SessionProvider> }
 * ```
 * @module frameworks/react
 */
import { createContext, createElement, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react'
import type { ReactNode } from 'react'
import type { Session } from '../../types/index.js'
import {
  createBrowserClient,
  type AuthorizationParams,
  type ClientSafeProvider,
  type SignInOptions,
  type SignInResponse,
  type SignOutOptions,
  type SignOutResponse,
} from '../shared/browser-client.js'
import { announceSessionChange, clientConfig, onSessionChange, stateOf, type SessionState } from './session-store.js'

export type {
  AuthorizationParams as SignInAuthorizationParams,
  ClientSafeProvider,
  SignInOptions,
  SignInResponse,
  SignOutResponse,
} from '../shared/browser-client.js'
export type { SessionStatus } from './session-store.js'
/** next-auth/react's name for the options of `signOut`. */
export type SignOutParams<Redirect extends boolean = true> = SignOutOptions<Redirect>

const client = createBrowserClient({
  basePath: () => clientConfig.basePath,
  module: 'authchart/react',
  onServer: 'use auth() from authchart/next',
})

/** Updates the session (the `update` trigger); without data, reads it again. Resolves to the new session. */
export type UpdateSession = (data?: unknown) => Promise<Session | null>

/** What `useSession` returns: the session, its status, and `update`. */
export type SessionContextValue<R extends boolean = false> = R extends true
  ? | { update: UpdateSession; data: Session; status: 'authenticated' }
    | { update: UpdateSession; data: null; status: 'loading' }
  : | { update: UpdateSession; data: Session; status: 'authenticated' }
    | { update: UpdateSession; data: null; status: 'unauthenticated' | 'loading' }

type ProvidedValue = SessionContextValue & { basePath: string }

export const SessionContext = createContext<ProvidedValue | undefined>(undefined)

export interface UseSessionOptions<R extends boolean> {
  /** `true`: a visitor without a session is sent to sign in (or `onUnauthenticated` runs). */
  required: R
  onUnauthenticated?: () => void
}

function asSession(value: unknown): Session | null {
  return typeof value === 'object' && value !== null ? (value as Session) : null
}

/** The session of the page; the component must sit inside a `SessionProvider`. */
export function useSession<R extends boolean = false>(options?: UseSessionOptions<R>): SessionContextValue<R>
export function useSession(options?: UseSessionOptions<boolean>): SessionContextValue<boolean> {
  const value = useContext(SessionContext)
  if (!value) throw new Error('[authchart]: `useSession` must be wrapped in a <SessionProvider />')
  const required = options?.required === true
  const onUnauthenticated = options?.onUnauthenticated
  const mustLeave = required && value.status === 'unauthenticated'
  useEffect(() => {
    if (!mustLeave) return
    if (onUnauthenticated) onUnauthenticated()
    else {
      const callbackUrl = window.location.href
      window.location.href = `${value.basePath}/signin?${new URLSearchParams({ error: 'SessionRequired', callbackUrl })}`
    }
  }, [mustLeave, onUnauthenticated, value.basePath])
  if (mustLeave) return { data: null, status: 'loading', update: value.update }
  if (value.status === 'authenticated') return { data: value.data, status: 'authenticated', update: value.update }
  return { data: null, status: value.status === 'loading' ? 'loading' : 'unauthenticated', update: value.update }
}

export interface SessionProviderProps {
  children: ReactNode
  /** The session the server read (`await auth()`): the page starts with it instead of loading. */
  session?: Session | null
  /** The origin of the auth endpoints when it is not the page's. */
  baseUrl?: string
  /** Where the auth endpoints live; default `/api/auth`. */
  basePath?: string
  /** Seconds between reads of the session; 0 (the default) reads it only on focus and on demand. */
  refetchInterval?: number
  /** Read the session again when the tab becomes visible; default true. */
  refetchOnWindowFocus?: boolean
  /** `false`: no interval reads while the browser is offline. */
  refetchWhenOffline?: false
}

/** Provides the session to `useSession` below it and keeps it fresh. */
export function SessionProvider(props: SessionProviderProps): ReactNode {
  const { children, session, basePath: given, refetchInterval = 0, refetchOnWindowFocus = true } = props
  const basePath = `${props.baseUrl ?? ''}${given ?? '/api/auth'}`
  if (given !== undefined || props.baseUrl !== undefined) clientConfig.basePath = basePath
  const [state, setState] = useState<SessionState>(() =>
    session === undefined ? { data: null, status: 'loading' } : stateOf(session),
  )
  const latest = useRef(0)

  const refetch = useCallback(async (): Promise<Session | null> => {
    const ticket = ++latest.current
    try {
      const fresh = asSession(await client.getSession(basePath))
      if (ticket === latest.current) setState(stateOf(fresh))
      return fresh
    } catch {
      // A failed read (offline, server error) keeps what the page has; the next event reads again.
      if (ticket === latest.current) setState((previous) => (previous.status === 'loading' ? stateOf(null) : previous))
      return null
    }
  }, [basePath])

  useEffect(() => {
    if (session === undefined) void refetch()
    return onSessionChange(() => void refetch())
  }, [refetch, session])

  useEffect(() => {
    if (!refetchOnWindowFocus) return
    const onVisible = () => {
      if (document.visibilityState === 'visible') void refetch()
    }
    document.addEventListener('visibilitychange', onVisible)
    return () => document.removeEventListener('visibilitychange', onVisible)
  }, [refetch, refetchOnWindowFocus])

  useEffect(() => {
    if (!refetchInterval) return
    const timer = setInterval(() => {
      if (props.refetchWhenOffline !== false || navigator.onLine) void refetch()
    }, refetchInterval * 1000)
    return () => clearInterval(timer)
  }, [refetch, refetchInterval, props.refetchWhenOffline])

  const update = useCallback<UpdateSession>(
    async (data) => {
      if (data === undefined) return refetch()
      const ticket = ++latest.current
      const fresh = asSession(await client.updateSession(data, basePath))
      if (ticket === latest.current) setState(stateOf(fresh))
      return fresh
    },
    [basePath, refetch],
  )

  const value = useMemo<ProvidedValue>(
    () =>
      state.status === 'authenticated' && state.data
        ? { data: state.data, status: 'authenticated', update, basePath }
        : { data: null, status: state.status === 'loading' ? 'loading' : 'unauthenticated', update, basePath },
    [state, update, basePath],
  )
  return createElement(SessionContext.Provider, { value }, children)
}

/** The session, read from the server now (null when signed out). */
export async function getSession(): Promise<Session | null> {
  return asSession(await client.getSession())
}

/** The CSRF token the auth endpoints expect with a POST. */
export function getCsrfToken(): Promise<string> {
  return client.getCsrfToken()
}

/** The configured providers, as `/providers` lists them, or null. */
export function getProviders(): Promise<Record<string, ClientSafeProvider> | null> {
  return client.getProviders()
}

/**
 * Signs in with `provider`: OAuth and OIDC providers go to the provider, credentials and e-mail are posted with the
 * fields in `options`. With `redirect: false` the page stays, and every `useSession` reads the new session.
 */
export function signIn(
  provider?: string,
  options?: SignInOptions<true>,
  authorizationParams?: AuthorizationParams,
): Promise<void>
export function signIn(
  provider: string,
  options: SignInOptions<false>,
  authorizationParams?: AuthorizationParams,
): Promise<SignInResponse>
export async function signIn(
  provider?: string,
  options?: SignInOptions<boolean>,
  authorizationParams?: AuthorizationParams,
): Promise<SignInResponse | void> {
  if (options?.redirect === false && provider) {
    const result = await client.signIn(provider, { ...options, redirect: false }, authorizationParams)
    if (result.ok) announceSessionChange()
    return result
  }
  return client.signIn(provider, { ...options, redirect: true }, authorizationParams)
}

/** Signs out; with `redirect: false` the page stays, and every `useSession` reads the (absent) session. */
export function signOut(options?: SignOutParams<true>): Promise<void>
export function signOut(options: SignOutParams<false>): Promise<SignOutResponse>
export async function signOut(options?: SignOutParams<boolean>): Promise<SignOutResponse | void> {
  if (options?.redirect === false) {
    const result = await client.signOut({ ...options, redirect: false })
    announceSessionChange()
    return result
  }
  return client.signOut({ ...options, redirect: true })
}

export type { SessionState }
