/**
 * Renders docs/providers.md from the vendor provider modules themselves: each module is loaded and called the way an
 * app calls it, and the page lists what that gives (id, name, type), the environment variables Authchart reads for
 * it, the callback URL to register with the vendor, and whether it needs more than a client id and secret. The
 * catalogue test renders it again and compares, so the page cannot drift from the code; `npm run
 * providers:catalogue` rewrites it.
 */
import { normalizeOAuthProvider } from '../../src/providers-internal/normalize-oauth.js'
import { readEndpoint } from '../../src/providers-internal/oauth-endpoint.js'
import { loadVendor, vendorSubpaths, type VendorFactory } from '../providers/vendor-modules.js'

const credentials = { clientId: 'catalogue-client', clientSecret: 'catalogue-secret' }
const urls = { signinUrl: 'https://app.example/auth/signin/x', callbackUrl: 'https://app.example/auth/callback/x' }

/** The upper snake case prefix Authchart (like Auth.js) reads a provider's variables under. */
export function envPrefix(id: string): string {
  return `AUTH_${id.toUpperCase().replace(/-/g, '_')}`
}

const probeIssuer = 'https://tenant.example'

function resolved(
  options: Record<string, unknown>,
  Vendor: VendorFactory,
): ReturnType<typeof normalizeOAuthProvider> | undefined {
  try {
    return normalizeOAuthProvider(Vendor(options), urls)
  } catch {
    return undefined
  }
}

/** What a vendor needs besides its client id and secret: nothing, its `issuer`, or other options. */
function needs(Vendor: VendorFactory): string {
  if (resolved(credentials, Vendor)) return ''
  const withIssuer = resolved({ ...credentials, issuer: probeIssuer }, Vendor)
  // An issuer counts only where the vendor uses it: discovery, or endpoints built on the instance's URL.
  const usesIssuer =
    withIssuer?.type === 'oidc' ||
    withIssuer?.wellKnown?.startsWith(probeIssuer) ||
    readEndpoint(withIssuer?.authorization).url?.startsWith(probeIssuer)
  return usesIssuer ? '`issuer`' : 'options (see the module)'
}

interface CatalogueRow {
  subpath: string
  id: string
  name: string
  type: string
  env: string[]
  needs: string
}

async function catalogueRow(subpath: string): Promise<CatalogueRow> {
  const Vendor = await loadVendor(subpath)
  const { id, name, type } = Vendor(credentials)
  const prefix = envPrefix(id)
  // The issuer variable is read for OAuth and OIDC providers alike, as in Auth.js; listed where the issuer is used.
  const need = needs(Vendor)
  const env = [
    `${prefix}_ID`,
    `${prefix}_SECRET`,
    ...(type === 'oidc' || need === '`issuer`' ? [`${prefix}_ISSUER`] : []),
  ]
  return { subpath, id, name, type, env, needs: need }
}

/**
 * Where a vendor module knowingly differs from Auth.js's, and why; rendered under the table. Kept next to the
 * renderer so the page stays generated, and short: each line names the vendor, the difference and the reason.
 */
const differences = [
  '`azure-devops`: signs in end to end with the exchange Azure DevOps documents (`response_type=Assertion`, then the code sent as a JWT-bearer `assertion` with the client secret as `client_assertion`; the provider sets `codeGrant: "jwt-bearer-assertion"`). Auth.js 0.41 declares that exchange in `token.request`, which its callback never calls, so it sends a plain code grant that Azure DevOps refuses (Azure DevOps: [OAuth](https://learn.microsoft.com/en-us/azure/devops/integrate/get-started/authentication/oauth)).',
  "`bankid-no`: the userinfo answer (a signed JWT) is verified against BankID's keys before use; Auth.js decodes it unverified (BankID: [OIDC](https://developer.bankid.no/bankid-with-biometrics/apis/oidc/)).",
  '`bitbucket`: also asks for the `email` scope and takes the primary confirmed address from `/2.0/user/emails`; Auth.js gives no e-mail address (Bitbucket: [OAuth 2](https://developer.atlassian.com/cloud/bitbucket/oauth-2/)).',
  '`fusionauth` (and any provider that does the same): a `WWW-Authenticate` header on a successful token or userinfo answer, which FusionAuth sends, is dropped before the answer is read, so sign-in works without the `token.conform` and custom `userinfo` workaround Auth.js users add (oauth4webapi reads any such header as a refusal). A refusal (401, 403) keeps its challenge (FusionAuth: [OAuth](https://fusionauth.io/docs/lifecycle/authenticate-users/oauth/)).',
  "`bungie`: takes the member from the token response's `membership_id` and sends the `apiKey` option as `X-API-Key`, which Bungie requires (Bungie: [OAuth documentation](https://github.com/Bungie-net/api/wiki/OAuth-Documentation)).",
  '`vk`, `naver`, `yandex`, `mailru`, `line`, and most other plain OAuth 2 vendors: `state` is sent (with or instead of PKCE, as the vendor supports), so every flow is bound to the browser; Auth.js sends no check at all to VK (VK: [authorization code flow](https://dev.vk.com/en/api/access-token/authcode-flow-user)).',
  "`atlassian`, `figma`, `pipedrive`, `patreon`: the scope or endpoint the vendor documents today (`read:me`, `current_user:read`, `/v1/users/me`, the v2 identity endpoint) where Auth.js has another (Figma's `files:read` and Patreon's v1 API are deprecated by the vendors) ([Atlassian](https://developer.atlassian.com/cloud/jira/platform/oauth-2-3lo-apps/), [Figma](https://www.figma.com/developers/api#oauth2), [Pipedrive](https://pipedrive.readme.io/docs/marketplace-oauth-authorization), [Patreon](https://docs.patreon.com/#oauth)).",
  "`netsuite`: the account id (`accountID`, the option Auth.js's provider reads, or `issuer`, as Auth.js's documentation passes it) is turned into NetSuite's host name form (lower case, `_` as `-`), as NetSuite's account-specific domains documentation writes it (NetSuite: [account-specific domains](https://docs.oracle.com/en/cloud/saas/netsuite/ns-online-help/section_157771733782.html)).",
  "`threads`: `profile()` reads the account as Threads' `/me` answers it (flat) as well as under `data` (the shape Auth.js's provider reads), the same `id` either way (Threads: [access tokens](https://developers.facebook.com/docs/threads/get-started/get-access-tokens-and-permissions)).",
  "`asgardeo`, `onelogin`: an organisation URL given as `issuer` gets the path suffix (`/oauth2/token`, `/oidc/2`) the vendor's tokens carry, so the issuer check passes ([Asgardeo](https://wso2.com/asgardeo/docs/references/app-settings/oidc-settings-for-app/), [OneLogin](https://developers.onelogin.com/openid-connect)).",
]

/** The markdown of docs/providers.md. */
export async function renderProviderCatalogue(): Promise<string> {
  const rows = await Promise.all(vendorSubpaths().map(catalogueRow))
  const lines = [
    '# Providers',
    '',
    '<!-- Generated from src/providers by `npm run providers:catalogue`; test/providers/provider-catalogue.test.ts keeps it true. -->',
    '',
    `Authchart ships ${rows.length} OAuth 2 / OpenID Connect vendor providers, one for each vendor Auth.js ships, under the same`,
    "import path (`@auth/core/providers/<id>` becomes `authchart/providers/<id>`), with Auth.js's provider id, callback",
    'path and type, and the same `providerAccountId` for the same vendor user: test/providers/authjs-parity.test.ts',
    "compares each with Auth.js 0.41.3's module. One id is not its import path, as in Auth.js: `ory-hydra` is the",
    "provider `hydra`. Options (scopes, checks, endpoints) are Auth.js's too, except the differences listed under the",
    'table with the vendor documentation they follow.',
    'Register the callback URL with the vendor (`basePath` is `/auth` unless you set it; Auth.js on Next.js uses',
    '`/api/auth`), and give the client id and secret in code or in the environment variables listed. "Needs" names',
    'what else a provider must be given: `issuer` for vendors you run yourself or that host one per customer.',
    '',
    '| Import | id | Name | Type | Environment variables | Callback URL to register | Needs |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map((row) =>
      [
        '',
        `\`authchart/providers/${row.subpath}\``,
        `\`${row.id}\``,
        row.name,
        row.type,
        row.env.map((name) => `\`${name}\``).join(' '),
        `\`https://<your app>/auth/callback/${row.id}\``,
        row.needs,
        '',
      ]
        .join(' | ')
        .trim(),
    ),
    '',
    "## Where a provider differs from Auth.js's",
    '',
    ...differences.map((line) => `- ${line}`),
    '',
  ]
  return lines.join('\n')
}
