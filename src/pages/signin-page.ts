/** The built-in sign-in page: a button per OAuth provider, a form per credentials or e-mail provider. */
import type { CredentialInput, WebAuthnFormField } from '../types/providers.js'
import type { Theme } from '../types/index.js'
import { escapeHtml, renderPage } from './html.js'
import { passkeyPageScript } from './passkey-script.js'
import { signInErrorMessage } from './messages.js'

export interface SignInPageProvider {
  id: string
  name: string
  type: string
  signinUrl: string
  callbackUrl: string
  credentials?: Record<string, CredentialInput>
  /** For WebAuthn providers: where Authchart is mounted, the fields to ask for, whether autofill offers passkeys. */
  passkey?: { basePath: string; formFields: Record<string, WebAuthnFormField>; conditional: boolean }
}

/** Renders the sign-in page. */
export function renderSignInPage(input: {
  providers: SignInPageProvider[]
  csrfToken: string
  callbackUrl: string
  error?: string
  theme?: Theme
}): string {
  const hidden = `<input type="hidden" name="csrfToken" value="${escapeHtml(input.csrfToken)}" /><input type="hidden" name="callbackUrl" value="${escapeHtml(input.callbackUrl)}" />`
  const blocks = input.providers
    .map((p) => {
      if (p.type === 'credentials') {
        const fields = Object.entries(p.credentials ?? {})
          .map(([name, field]) => {
            const id = `input-${escapeHtml(name)}-for-${escapeHtml(p.id)}`
            return `<label for="${id}">${escapeHtml(field.label ?? name)}</label><input id="${id}" name="${escapeHtml(name)}" type="${escapeHtml(field.type ?? 'text')}" placeholder="${escapeHtml(field.placeholder ?? '')}" />`
          })
          .join('')
        return `<form action="${escapeHtml(p.callbackUrl)}" method="POST">${hidden}${fields}<button type="submit">Sign in with ${escapeHtml(p.name)}</button></form>`
      }
      if (p.type === 'webauthn' && p.passkey) {
        const fields = Object.entries(p.passkey.formFields)
          .map(([name, field]) => {
            const id = `input-${escapeHtml(name)}-for-${escapeHtml(p.id)}`
            return `<label for="${id}">${escapeHtml(field.label ?? name)}</label><input id="${id}" name="${escapeHtml(name)}" data-field type="${name === 'email' ? 'email' : 'text'}" autocomplete="${escapeHtml(field.autocomplete ?? '')}" />`
          })
          .join('')
        return `<form action="${escapeHtml(p.callbackUrl)}" method="POST" data-passkey="${escapeHtml(p.id)}" data-base="${escapeHtml(p.passkey.basePath)}" data-conditional="${String(p.passkey.conditional)}">${hidden}${fields}<button type="submit">Sign in with ${escapeHtml(p.name)}</button><p class="error" role="alert" hidden></p></form>`
      }
      if (p.type === 'email') {
        return `<form action="${escapeHtml(p.signinUrl)}" method="POST">${hidden}<label for="input-email-for-${escapeHtml(p.id)}">Email</label><input id="input-email-for-${escapeHtml(p.id)}" name="email" type="email" placeholder="email@example.com" required /><button type="submit">Sign in with ${escapeHtml(p.name)}</button></form>`
      }
      return `<form action="${escapeHtml(p.signinUrl)}" method="POST">${hidden}<button type="submit">Sign in with ${escapeHtml(p.name)}</button></form>`
    })
    .join('<hr />')
  const error = input.error
    ? `<div class="error" role="alert">${escapeHtml(signInErrorMessage(input.error))}</div>`
    : ''
  const script = input.providers.some((p) => p.type === 'webauthn' && p.passkey) ? passkeyPageScript() : ''
  return renderPage('Sign in', `<h1>Sign in</h1>${error}${blocks}${script}`, input.theme)
}
