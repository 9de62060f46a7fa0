/**
 * The provider types, as `@auth/core/providers` names them: `import type { Provider } from 'authchart/providers'`.
 * Each provider itself is its own module, `authchart/providers/<id>`.
 * @module providers
 */
import type { EmailConfig, OAuthConfig, Provider, PublicProvider, WebAuthnConfig } from '../types/providers.js'
import type { emailProviderIds, oauthProviderIds, webAuthnProviderIds } from '../providers-internal/provider-ids.js'

export type {
  ChecksType,
  CommonProviderOptions,
  CredentialInput,
  CredentialsConfig,
  EmailConfig,
  EndpointHandler,
  OAuth2Config,
  OAuthConfig,
  OAuthUserConfig,
  OIDCConfig,
  OIDCUserConfig,
  Provider,
  ProviderStyle,
  ProviderType,
  RelyingParty,
  WebAuthnConfig,
} from '../types/providers.js'
export type { RedirectableProviderType } from '../types/models.js'
export type { EmailUserConfig } from './email.js'
export type { CredentialsUserConfig } from './credentials.js'

/** The id of a built-in OAuth / OpenID Connect vendor. */
export type OAuthProviderId = (typeof oauthProviderIds)[number]
/** The id of a built-in e-mail provider. */
export type EmailProviderId = (typeof emailProviderIds)[number]
export type CredentialsProviderId = 'credentials'
/** The id of a built-in WebAuthn provider. */
export type WebAuthnProviderId = (typeof webAuthnProviderIds)[number]
/** The id of any provider: a built-in one, or any string an app gives its own. */
export type ProviderId = OAuthProviderId | EmailProviderId | CredentialsProviderId | WebAuthnProviderId | (string & {})

/** What the OAuth `checks` option takes. */
export type OAuthChecks = NonNullable<OAuthConfig['checks']>[number]
/** The argument of an e-mail provider's `sendVerificationRequest`. */
export type EmailProviderSendVerificationRequestParams = Parameters<EmailConfig['sendVerificationRequest']>[0]
/** The `type` of an e-mail provider. */
export type EmailProviderType = EmailConfig['type']
/** The `type` of a WebAuthn provider. */
export type WebAuthnProviderType = WebAuthnConfig['type']
/** A provider as `GET /providers` lists it to the client. */
export type AppProvider = PublicProvider
/** What the `providers` option holds. */
export type AppProviders = Provider[]
