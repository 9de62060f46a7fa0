/**
 * A development OpenID Provider for the demo: the `oidc-provider` package on a loopback port inside the demo process,
 * with one fixed client and a login page that accepts any name (no password), so "Sign in with Dev OP" works with no
 * outside service. Never use this in production: anyone can sign in as anyone.
 */
import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { exportJWK, generateKeyPair } from 'jose'

/** The demo's client at the development OP; the secret is public on purpose: this OP only runs on loopback. */
export const devClient = { clientId: 'authchart-demo', clientSecret: 'authchart-demo-secret' } as const

/** A running development OP. */
export interface DevOpenIdProvider {
  issuer: string
  close(): Promise<void>
}

interface OidcGrant {
  addOIDCScope(scope: string): void
  save(): Promise<string>
}
interface OidcInteraction {
  uid: string
  params: Record<string, unknown>
}
interface OidcProviderInstance {
  callback(): (req: IncomingMessage, res: ServerResponse) => void
  interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<OidcInteraction>
  interactionFinished(
    req: IncomingMessage,
    res: ServerResponse,
    result: Record<string, unknown>,
    options?: { mergeWithLastSubmission?: boolean },
  ): Promise<void>
  Grant: new (init: { accountId: string; clientId: string }) => OidcGrant
}
type OidcProviderConstructor = new (issuer: string, configuration: Record<string, unknown>) => OidcProviderInstance

// oidc-provider ships no type declarations; a computed specifier keeps the import `unknown` until the small
// interface above is applied to it.
async function loadProviderClass(): Promise<OidcProviderConstructor> {
  const specifier: string = 'oidc-provider'
  const loaded: unknown = await import(specifier)
  return (loaded as { default: OidcProviderConstructor }).default
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** The account id a typed name becomes: lower-case letters, digits and dashes. */
function accountIdOf(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 40) || 'dev-user'
  )
}

function loginPage(action: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Dev OP: sign in</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: system-ui; max-width: 30rem; margin: 3rem auto">
<h1>Dev OP</h1><p>The demo's development OpenID provider. Type any name: no password, nothing leaves this machine.</p>
<form method="post" action="${escape(action)}"><label>Name <input name="name" value="Grace Hopper" autocomplete="name" required></label>
<button type="submit">Sign in and allow</button></form></body></html>`
}

function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    let text = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => {
      text += chunk
      if (text.length > 10_000) req.destroy(new Error('form too large'))
    })
    req.on('end', () => resolve(new URLSearchParams(text)))
    req.on('error', reject)
  })
}

/**
 * Starts the OP on `127.0.0.1` (port 0: any free port).
 * @param redirectUris the demo's callback URLs, registered for the fixed client
 */
export async function startDevOpenIdProvider(options: {
  redirectUris: string[]
  port?: number
}): Promise<DevOpenIdProvider> {
  const Provider = await loadProviderClass()
  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.writeHead(503).end()
  const server = createServer((req, res) => handle(req, res))
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  // Names typed on the login page, by account id: the claims the OP answers with.
  const names = new Map<string, string>()
  const { privateKey } = await generateKeyPair('RS256', { extractable: true })
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: devClient.clientId,
        client_secret: devClient.clientSecret,
        redirect_uris: options.redirectUris,
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [{ ...(await exportJWK(privateKey)), kid: 'dev-op', alg: 'RS256', use: 'sig' }] },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    conformIdTokenClaims: false,
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx: unknown, sub: string) => {
      const name = names.get(sub)
      if (name === undefined) return undefined
      return { accountId: sub, claims: () => ({ sub, name, email: `${sub}@dev-op.test`, email_verified: true }) }
    },
    clientBasedCORS: () => false,
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
  })
  const providerHandler = provider.callback()

  const interaction = async (req: IncomingMessage, res: ServerResponse) => {
    const details = await provider.interactionDetails(req, res)
    if (req.method !== 'POST') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
      res.end(loginPage(`/interaction/${details.uid}`))
      return
    }
    const name = ((await readForm(req)).get('name') ?? '').trim().slice(0, 80) || 'Dev User'
    const accountId = accountIdOf(name)
    names.set(accountId, name)
    const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) })
    grant.addOIDCScope(typeof details.params.scope === 'string' ? details.params.scope : 'openid')
    const result = { login: { accountId }, consent: { grantId: await grant.save() } }
    await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false })
  }

  handle = (req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      interaction(req, res).catch((err: unknown) => {
        // An expired or unknown interaction: a plain page, never a stack.
        console.warn('[dev-op] interaction failed:', err instanceof Error ? err.message : String(err))
        if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain' })
        res.end('This sign-in attempt expired or is unknown. Go back to the demo and start again.')
      })
      return
    }
    providerHandler(req, res)
  }
  return {
    issuer,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
