/**
 * The Qwik City binding (Qwik 1.x): `QwikAuth$((event) => config)` returns the request hook `onRequest`, which
 * answers everything under `basePath` (default `/auth`) and leaves the session in `sharedMap` under `'session'`, the
 * route loader `useSession` and the global actions `useSignIn` / `useSignOut`. Qwik and Qwik City are optional peer
 * dependencies, needed only by this entry point.
 *
 * Built by plain `tsc`, for the app's optimizer to finish: the file's `.qwik.mjs` name (with the package's `qwik`
 * field) makes Qwik's Vite plugin run the app's optimizer over it and bundle it with the app, so there is one copy
 * of Qwik City. The loader and actions are `inlinedQrl`s that the optimizer may move into segments (so they take
 * their captures from the lexical scope); the one `$` call, `serverModule$`, keeps Authchart's core out of browser
 * builds. The app's own `QwikAuth$(fn)` is rewritten into `QwikAuthQrl(qrl)`, which is why both are exported.
 *
 * @example
 * ```ts
 * // src/routes/plugin@auth.ts
 * import { QwikAuth$ } from 'authchart/qwik'
 * import GitHub from 'authchart/providers/github'
 * export const { onRequest, useSession, useSignIn, useSignOut } = QwikAuth$(({ env }) => ({
 *   secret: env.get('AUTH_SECRET'),
 *   trustHost: true,
 *   providers: [GitHub],
 * }))
 * ```
 * @module frameworks/qwik
 */
import { implicit$FirstArg, inlinedQrl, useLexicalScope, type QRL } from '@builder.io/qwik'
import {
  globalActionQrl,
  routeLoaderQrl,
  type Action,
  type FailReturn,
  type Loader,
  type RequestEventAction,
  type RequestEventCommon,
  type RequestHandler,
} from '@builder.io/qwik-city'
import type { Session } from '../../types/index.js'
import {
  checkSignInInput,
  checkSignOutInput,
  type InputErrors,
  type SignInFieldErrors,
  type SignOutFieldErrors,
} from './input.js'
import type { QwikAuthConfig } from './server.js'
import type { RequireRecentAuthOptions } from '../shared/step-up.js'
import { serverModule$ } from './server-module.js'

export type { QwikAuthConfig } from './server.js'
export type { RequireRecentAuthOptions, SessionAuthentication } from '../shared/step-up.js'
export type { SignInFieldErrors, SignOutFieldErrors } from './input.js'
export { sessionKey } from './session-key.js'

/** The app's configuration function: the request event (for `env.get(...)`) to a configuration. */
export type QwikAuthConfigFn = (event: RequestEventCommon) => QwikAuthConfig | Promise<QwikAuthConfig>

/** Input of `useSignIn` (other string fields, such as a credentials provider's, are passed to the provider). */
export interface SignInInput {
  providerId?: string
  redirectTo?: string
  authorizationParams?: string | URLSearchParams | Record<string, string>
  options?: { redirectTo?: string; [key: string]: unknown }
  [field: string]: unknown
}

// A type alias, not an interface: Qwik City's action input must be assignable to Record<string, unknown>.
export type SignOutInput = {
  redirectTo?: string
}

/** `{ failed: undefined }` on success (the browser is redirected), else the validation or refusal errors. */
export type SignInResult = { failed: undefined } | FailReturn<InputErrors<SignInFieldErrors>>
export type SignOutResult = { failed: undefined } | FailReturn<InputErrors<SignOutFieldErrors>>

/** What `QwikAuth$` returns; export all four from `src/routes/plugin@auth.ts`. */
export interface QwikAuthResult {
  onRequest: RequestHandler
  useSession: Loader<Session | null>
  useSignIn: Action<SignInResult, SignInInput>
  useSignOut: Action<SignOutResult, SignOutInput>
  /**
   * Step-up (docs/step-up.md): a request hook for a route that needs a recent sign-in, e.g.
   * `export const onRequest = requireRecentAuth({ maxAge: 300 })` in its `layout.tsx`. A session signed in more than
   * `maxAge` seconds ago, or without every method of `factors`, is redirected (303) to the sign-in page, which brings
   * it back here.
   */
  requireRecentAuth(options: RequireRecentAuthOptions): RequestHandler
}

const crossSite = 'Cross-site sign-in and sign-out requests are refused'

function noSignInErrors(): SignInFieldErrors {
  return { authorizationParams: undefined, options: undefined, providerId: undefined, redirectTo: undefined }
}

/**
 * The server half, loaded on first use. By package name, so that the app's bundler bundles it with the app's own
 * copy of Authchart (and a bundler that resolves the `browser` condition gets a stub).
 */
const loadServer = serverModule$(() => import('authchart/qwik/server'))

/**
 * The Location for a redirect out of an action: a path when it stays on this origin. Qwik City's client submits
 * actions with fetch (`q-data.json`) and follows only redirects given as a path; an absolute URL there ends the
 * request without an answer. A provider's page is necessarily absolute: forms that go there need `reloadDocument`.
 */
function redirectTarget(url: string, here: URL): string {
  const target = new URL(url, here)
  return target.origin === here.origin ? `${target.pathname}${target.search}${target.hash}` : target.href
}

/** Resolves the app's configuration function; the server module loads here, on the server only. */
async function configure(configQrl: QRL<QwikAuthConfigFn>, event: RequestEventCommon) {
  const server = await loadServer()
  const configFn = await configQrl.resolve()
  return { server, config: server.prepare(await configFn(event)) }
}

/**
 * What the loader and actions capture. The app's optimizer moves each `inlinedQrl` function into a segment of its
 * own, so they receive the configuration QRL through Qwik's lexical scope, never through a JavaScript closure.
 */
type Captured = [QRL<QwikAuthConfigFn>]

/** The `QRL` form of {@link QwikAuth$}, which the Qwik optimizer calls. */
export function QwikAuthQrl(configQrl: QRL<QwikAuthConfigFn>): QwikAuthResult {
  const onRequest: RequestHandler = async (event) => {
    const { server, config } = await configure(configQrl, event)
    const response = await server.answerAuthRequest(event, config)
    if (response) {
      event.send(response)
      return
    }
    await server.sessionOf(event, config)
  }

  const useSession = routeLoaderQrl(
    inlinedQrl(
      async (event: RequestEventCommon): Promise<Session | null> => {
        const [captured] = useLexicalScope<Captured>()
        const { server, config } = await configure(captured, event)
        return server.sessionOf(event, config)
      },
      'AuthchartQwik_useSession',
      [configQrl],
    ),
    { id: 'authchart-session' },
  )

  const useSignIn: Action<SignInResult, SignInInput> = globalActionQrl(
    inlinedQrl(
      async (data: unknown, event: RequestEventAction): Promise<SignInResult> => {
        const [captured] = useLexicalScope<Captured>()
        const { server, config } = await configure(captured, event)
        // The action's CSRF check: without it another site could post a form here and sign the visitor in.
        if (!server.isOwnOriginPost(event))
          return event.fail(403, { fieldErrors: noSignInErrors(), formErrors: [crossSite] })
        const checked = checkSignInInput(
          data,
          server.providersOf(config).map((provider) => provider.id),
          event.url.origin,
        )
        if (!checked.ok) return event.fail(400, checked.errors)
        const outcome = await server.signIn(event, config, checked.value)
        if ('error' in outcome)
          return event.fail(outcome.status, { fieldErrors: noSignInErrors(), formErrors: [outcome.error] })
        throw event.redirect(303, redirectTarget(outcome.url, event.url))
      },
      'AuthchartQwik_useSignIn',
      [configQrl],
    ),
    { id: 'authchart-signin' },
  )

  const useSignOut: Action<SignOutResult, SignOutInput> = globalActionQrl(
    inlinedQrl(
      async (data: unknown, event: RequestEventAction): Promise<SignOutResult> => {
        const [captured] = useLexicalScope<Captured>()
        const { server, config } = await configure(captured, event)
        if (!server.isOwnOriginPost(event))
          return event.fail(403, { fieldErrors: { redirectTo: undefined }, formErrors: [crossSite] })
        const checked = checkSignOutInput(data, event.url.origin)
        if (!checked.ok) return event.fail(400, checked.errors)
        const outcome = await server.signOut(event, config, checked.value)
        if ('error' in outcome)
          return event.fail(outcome.status, { fieldErrors: { redirectTo: undefined }, formErrors: [outcome.error] })
        throw event.redirect(303, redirectTarget(outcome.url, event.url))
      },
      'AuthchartQwik_useSignOut',
      [configQrl],
    ),
    { id: 'authchart-signout' },
  )

  const requireRecentAuth = (options: RequireRecentAuthOptions): RequestHandler => {
    return async (event) => {
      const { server, config } = await configure(configQrl, event)
      const outcome = await server.stepUpOf(event, config, options)
      if (outcome.redirectTo !== undefined) throw event.redirect(303, redirectTarget(outcome.redirectTo, event.url))
    }
  }

  return { onRequest, useSession, useSignIn, useSignOut, requireRecentAuth }
}

/**
 * Sets up Authchart in a Qwik City app. `configFn` runs on the server for each request (read secrets with
 * `event.env.get(...)`); environment defaults (AUTH_SECRET, AUTH_URL, AUTH_TRUST_HOST, provider ids and secrets)
 * are applied once per configuration object, so return the same object when nothing changes.
 */
export const QwikAuth$: (configFn: QwikAuthConfigFn) => QwikAuthResult = implicit$FirstArg(QwikAuthQrl)
