/**
 * Sites that serve the built-in pages over real HTTP (Express on a loopback port), with every kind of provider the
 * sign-in page draws: an OAuth button, a credentials form, an e-mail form and a passkey form.
 */
import { MemoryAdapter } from '../../adapters/memory.js'
import Credentials from '../../src/providers/credentials.js'
import GitHub from '../../src/providers/github.js'
import Nodemailer from '../../src/providers/nodemailer.js'
import Passkey from '../../src/providers/passkey.js'
import type { AuthConfig, Provider, Theme } from '../../src/types/index.js'
import { startHttpSite, type HttpSite } from '../support/http-site.js'

export const pagesSecret = 'pages-test-secret-with-at-least-32-characters'

/** A logger that keeps quiet about the expected (experimental passkeys) and keeps errors for the test to read. */
export function quietLogger(errors: unknown[] = []): NonNullable<AuthConfig['logger']> {
  return { warn: () => {}, debug: () => {}, error: (e) => void errors.push(e) }
}

export type ProviderSet = 'all' | 'credentials'

function providers(set: ProviderSet): Provider[] {
  const credentials = Credentials({
    credentials: { username: { label: 'Username' }, password: { label: 'Password', type: 'password' } },
    authorize: () => null,
  })
  if (set === 'credentials') return [credentials]
  return [
    GitHub({ clientId: 'pages-test-client', clientSecret: 'pages-test-client-secret' }),
    credentials,
    // Never sends here: the pages under test only draw the form. Port 9 (discard) would refuse a connection.
    Nodemailer({ id: 'email', name: 'Email', server: 'smtp://127.0.0.1:9', from: 'login@site.test' }),
    Passkey(),
  ]
}

/** The configuration of a page site; `extra` lands on top (a theme, locales). */
export function pagesConfig(set: ProviderSet, extra: Partial<AuthConfig> = {}): AuthConfig {
  return {
    secret: pagesSecret,
    trustHost: true,
    adapter: MemoryAdapter(),
    session: { strategy: 'jwt' },
    experimental: { enableWebAuthn: true },
    providers: providers(set),
    logger: quietLogger(),
    ...extra,
  }
}

/** Starts a site with the given providers and theme. */
export function startPageSite(set: ProviderSet, theme?: Theme): Promise<HttpSite> {
  return startHttpSite(() => pagesConfig(set, theme ? { theme } : {}))
}

/** A built-in page and where a site serves it. */
export interface BuiltInPage {
  name: string
  path: string
  set: ProviderSet
  /** The HTTP status the page comes with (200 unless said). */
  status?: number
}

/** Every built-in page, as the screenshot and accessibility tests visit them. */
export const builtInPages: BuiltInPage[] = [
  { name: 'signin', path: '/auth/signin', set: 'all' },
  { name: 'signin-error', path: '/auth/signin?error=CredentialsSignin', set: 'credentials' },
  { name: 'signout', path: '/auth/signout', set: 'all' },
  { name: 'verify-request', path: '/auth/verify-request', set: 'all' },
  { name: 'error', path: '/auth/error?error=Verification', set: 'all', status: 403 },
  // Following a sign-in link shows the confirmation page and consumes nothing, so any token shows it.
  {
    name: 'email-confirm',
    path: '/auth/callback/email?token=pages-test-token&email=ada.lovelace%40example.com',
    set: 'all',
  },
]
