/**
 * Every OAuth / OpenID Connect vendor provider Auth.js ships (`@auth/core/providers/<id>`), taken from its documented
 * `OAuthProviderId` type. Left out on purpose: the e-mail providers (resend, sendgrid, nodemailer, postmark, mailgun,
 * forwardemail, loops), credentials, webauthn and passkey. An app importing one of these must find the same subpath
 * in Authchart, so provider-catalogue.test.ts fails when one is missing or an extra one appears.
 */
export const authjsVendorIds = [
  '42-school', 'apple', 'asgardeo', 'atlassian', 'auth0', 'authentik', 'azure-ad-b2c', 'azure-ad', 'azure-devops',
  'bankid-no', 'battlenet', 'beyondidentity', 'bitbucket', 'box', 'boxyhq-saml', 'bungie', 'click-up', 'cognito',
  'coinbase', 'concept2', 'descope', 'discord', 'dribbble', 'dropbox', 'duende-identity-server6', 'eventbrite',
  'eveonline', 'facebook', 'faceit', 'figma', 'foursquare', 'freshbooks', 'frontegg', 'fusionauth', 'github', 'gitlab',
  'google', 'hubspot', 'huggingface', 'identity-server4', 'instagram', 'kakao', 'keycloak', 'kinde', 'line', 'linkedin',
  'logto', 'mailchimp', 'mailru', 'mastodon', 'mattermost', 'medium', 'microsoft-entra-id', 'naver', 'netlify',
  'netsuite', 'nextcloud', 'notion', 'okta', 'onelogin', 'ory-hydra', 'osso', 'osu', 'passage', 'patreon', 'ping-id',
  'pinterest', 'pipedrive', 'reddit', 'roblox', 'salesforce', 'simplelogin', 'slack', 'spotify', 'strava', 'threads',
  'tiktok', 'todoist', 'trakt', 'twitch', 'twitter', 'united-effects', 'vipps', 'vk', 'webex', 'wechat', 'wikimedia',
  'wordpress', 'workos', 'yandex', 'zitadel', 'zoho', 'zoom',
] as const

/** Modules under src/providers that are not OAuth vendors: the generic providers, the shared building blocks, the e-mail providers. */
export const nonVendorProviderModules = [
  'bearer-request', 'credentials', 'issuer-oidc', 'loopback-host', 'merge-oauth-options', 'normalize-oauth',
  'oauth', 'oauth-endpoint', 'oidc', 'passkey', 'profile-defaults', 'webauthn',
  // E-mail providers and their building blocks (docs/email.md): not OAuth vendors.
  'email', 'email-message', 'email-request-limits', 'email-vendor-request', 'nodemailer',
  'resend', 'sendgrid', 'postmark', 'mailgun', 'forwardemail', 'loops',
] as const
