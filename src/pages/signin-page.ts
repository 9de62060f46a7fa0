/** The built-in sign-in page: a button per OAuth provider, a form per credentials, e-mail or passkey provider. */
import type { CredentialInput, ProviderStyle, WebAuthnFormField } from '../types/providers.js'
import type { PageMessages, Theme } from '../types/index.js'
import { escapeHtml, renderPage, safeColor } from './html.js'
import type { PageLocale } from './locale.js'
import { fillMessage, signInErrorMessage } from './messages.js'
import { passkeyPageScript } from './passkey-script.js'
import { credentialAutocomplete, passkeyAutocomplete } from './autocomplete.js'

/** The label the passkey preset gives its `email` field (src/providers/webauthn.ts). */
const presetEmailLabel = 'Email'

export interface SignInPageProvider {
  id: string
  name: string
  type: string
  signinUrl: string
  callbackUrl: string
  credentials?: Record<string, CredentialInput>
  /** For WebAuthn providers: where Authchart is mounted, the fields to ask for, whether autofill offers passkeys. */
  passkey?: { basePath: string; formFields: Record<string, WebAuthnFormField>; conditional: boolean }
  /** The provider's `style`: its brand colour marks its button, its logo stands before the name. */
  style?: ProviderStyle
}

/** A logo URL the page may load: https, or a path of this site (not `//host`, which is another site). */
function safeLogo(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 2048) return undefined
  if (value.startsWith('/')) return value.startsWith('//') || value.startsWith('/\\') ? undefined : value
  try {
    return new URL(value).protocol === 'https:' ? value : undefined
  } catch {
    return undefined
  }
}

export interface SignInPageInput {
  providers: SignInPageProvider[]
  csrfToken: string
  callbackUrl: string
  error?: string
  theme?: Theme
  locale: PageLocale
}

/** ` name="value"` for each attribute that has a value; nothing for the others. */
function attributes(values: Record<string, string | boolean | undefined>): string {
  return Object.entries(values)
    .map(([name, value]) =>
      value === undefined || value === false ? '' : value === true ? ` ${name}` : ` ${name}="${escapeHtml(value)}"`,
    )
    .join('')
}

function credentialFields(p: SignInPageProvider): string {
  const entries = Object.entries(p.credentials ?? {})
  return entries
    .map(([name, field]) => {
      const id = `input-${name}-for-${p.id}`
      const input = attributes({
        id,
        name,
        type: typeof field.type === 'string' ? field.type : 'text',
        placeholder: typeof field.placeholder === 'string' && field.placeholder ? field.placeholder : undefined,
        autocomplete: credentialAutocomplete(name, field, entries),
        required: field.required === true,
      })
      return `<label for="${escapeHtml(id)}">${escapeHtml(field.label ?? name)}</label><input${input} />`
    })
    .join('')
}

function passkeyFields(
  p: SignInPageProvider,
  formFields: Record<string, WebAuthnFormField>,
  messages: PageMessages,
): string {
  const entries = Object.entries(formFields)
  return entries
    .map(([name, field]) => {
      const id = `input-${name}-for-${p.id}`
      const input = attributes({
        id,
        name,
        'data-field': true,
        type: name === 'email' ? 'email' : 'text',
        autocomplete: passkeyAutocomplete(field, entries),
        // No `required`, even where the preset says so: an empty field is how a discoverable passkey signs in.
      })
      return `<label for="${escapeHtml(id)}">${escapeHtml(passkeyLabel(name, field, messages))}</label><input${input} />`
    })
    .join('')
}

/**
 * The label of a passkey field. The preset's own English label of its `email` field is shown in the page's language;
 * a label the app chose is shown as written.
 */
function passkeyLabel(name: string, field: WebAuthnFormField, messages: PageMessages): string {
  if (name === 'email' && (field.label === undefined || field.label === presetEmailLabel))
    return messages.passkeyEmailLabel
  return field.label ?? name
}

/** Renders the sign-in page. */
export function renderSignInPage(input: SignInPageInput): string {
  const m = input.locale.messages
  const hidden = `<input type="hidden" name="csrfToken" value="${escapeHtml(input.csrfToken)}" /><input type="hidden" name="callbackUrl" value="${escapeHtml(input.callbackUrl)}" />`
  const button = (p: SignInPageProvider, className?: string) =>
    `<button type="submit"${className ? ` class="${className}"` : ''}>${fillMessage(escapeHtml(m.signInWith), { provider: escapeHtml(p.name) })}</button>`
  const blocks = input.providers
    .map((p) => {
      if (p.type === 'credentials') {
        return `<form action="${escapeHtml(p.callbackUrl)}" method="POST">${hidden}${credentialFields(p)}${button(p)}</form>`
      }
      if (p.type === 'webauthn' && p.passkey) {
        const data = attributes({
          'data-passkey': p.id,
          'data-base': p.passkey.basePath,
          'data-conditional': String(p.passkey.conditional),
          'data-failed': m.passkeyFailed,
        })
        return `<form action="${escapeHtml(p.callbackUrl)}" method="POST"${data}>${hidden}${passkeyFields(p, p.passkey.formFields, m)}${button(p)}<p class="error" role="alert" hidden></p></form>`
      }
      if (p.type === 'email') {
        const id = `input-email-for-${p.id}`
        const field = attributes({
          id,
          name: 'email',
          type: 'email',
          placeholder: m.emailPlaceholder,
          autocomplete: 'email',
          required: true,
        })
        return `<form action="${escapeHtml(p.signinUrl)}" method="POST">${hidden}<label for="${escapeHtml(id)}">${escapeHtml(m.emailLabel)}</label><input${field} />${button(p)}</form>`
      }
      // A provider button leaves for another site: the neutral style, so the forms' brand buttons stay the main action.
      // The provider's own brand colour marks it as a bar at its edge (its text keeps the page's contrast), and
      // its logo stands before the name, as Auth.js's page shows them.
      const color = safeColor(p.style?.brandColor ?? p.style?.bg)
      const logo = safeLogo(p.style?.logo)
      const label = fillMessage(escapeHtml(m.signInWith), { provider: escapeHtml(p.name) })
      const styled = color ? ` style="--provider-brand: ${escapeHtml(color)}"` : ''
      const image = logo ? `<img src="${escapeHtml(logo)}" alt="" width="20" height="20" />` : ''
      return `<form action="${escapeHtml(p.signinUrl)}" method="POST">${hidden}<button type="submit" class="provider${color ? ' branded' : ''}"${styled}>${image}${label}</button></form>`
    })
    .join('<hr />')
  const error = input.error
    ? `<div class="error" role="alert">${escapeHtml(signInErrorMessage(m, input.error))}</div>`
    : ''
  const script = input.providers.some((p) => p.type === 'webauthn' && p.passkey) ? passkeyPageScript() : ''
  return renderPage({
    title: m.signInTitle,
    content: `<h1>${escapeHtml(m.signInTitle)}</h1>${error}${blocks}${script}`,
    locale: input.locale,
    theme: input.theme,
  })
}
