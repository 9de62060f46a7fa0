/**
 * How the client authenticates at the token endpoint (`client.token_endpoint_auth_method`).
 */
import * as client from 'openid-client'
import type { OAuthConfigInternal } from '../../types/providers.js'

/**
 * HTTP Basic with RFC 6749 §2.3.1's form-urlencoding, spelled the way Auth.js spells it: `encodeURIComponent`, with
 * spaces as `+`. openid-client also escapes `-_.!~*'()`, which decodes to the same value, but several vendors do
 * not decode the header at all, and client ids full of `-` and `_` would then stop matching after a migration.
 */
function clientSecretBasic(clientSecret: string): client.ClientAuth {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+')
  return (_server, clientMetadata, _body, headers) => {
    headers.set('authorization', `Basic ${btoa(`${encode(clientMetadata.client_id)}:${encode(clientSecret)}`)}`)
  }
}

/** The client authentication for a provider; with no method configured, Basic when there is a secret, as in Auth.js. */
export function clientAuthentication(provider: OAuthConfigInternal): client.ClientAuth {
  // The JWT-bearer code grant carries the secret as the `client_assertion` parameter, nowhere else.
  if (provider.codeGrant === 'jwt-bearer-assertion') return client.None()
  const secret = provider.clientSecret
  const method = provider.client?.token_endpoint_auth_method ?? (secret ? 'client_secret_basic' : 'none')
  switch (method) {
    case 'client_secret_basic':
      return clientSecretBasic(secret ?? '')
    case 'client_secret_post':
      return client.ClientSecretPost(secret)
    case 'client_secret_jwt':
      return client.ClientSecretJwt(secret)
    default:
      return client.None()
  }
}
