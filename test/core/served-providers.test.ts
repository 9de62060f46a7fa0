/** Configuration accepts only providers some flow serves: a provider no flow serves is refused when the config is first used. */
import { describe, expect, it } from 'vitest'
import { servedProviderKinds } from '../../src/core/actions/provider-actions.js'
import type { EmailConfig, WebAuthnConfig } from '../../src/types/providers.js'
import { send, testConfig } from '../support/auth-harness.js'

const candidates: Array<[string, EmailConfig | WebAuthnConfig]> = [
  ['email', { id: 'email', name: 'Email', type: 'email' } as EmailConfig],
  ['webauthn', { id: 'passkey', name: 'Passkey', type: 'webauthn' }],
]

describe('providers no flow serves', () => {
  it.each(candidates.filter(([kind]) => !servedProviderKinds.has(kind)))(
    'a %s provider is a configuration error that names it',
    async (_kind, provider) => {
      const config = testConfig({ providers: [provider], experimental: { enableWebAuthn: true } })
      const response = await send(config, '/auth/providers')
      expect(response.status).toBe(500)
      const refused = config.recorded.errors.find((e) => (e as { type?: string }).type === 'InvalidConfig')
      expect(refused?.message).toContain(`provider "${provider.id}"`)
    },
  )

  it('every kind a configured provider can have is either served or refused by name', () => {
    expect(servedProviderKinds.has('oauth')).toBe(true)
    expect(servedProviderKinds.has('credentials')).toBe(true)
  })
})
