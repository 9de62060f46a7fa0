/**
 * The sign-in page's passkey script, served inline by Authchart (nothing is fetched from elsewhere): the client
 * helper of src/webauthn-client.ts, then the wiring of each passkey form (the button, and the autofill request
 * when conditional UI is on). The failure text comes from the form's `data-failed`, in the page's language.
 * The helper comes as a static string (passkey-client-source.ts), never as `passkeySignIn.toString()`: a function's
 * text is whatever the module loader made of it, and tsx (`npm start`) puts its own `__name` helper in it.
 */
import { passkeySignInSource } from './passkey-client-source.js'

const wiring = `
for (const form of document.querySelectorAll('form[data-passkey]')) {
  const alert = form.querySelector('p.error')
  let pending
  const run = (mediation) => {
    const fields = {}
    if (!mediation) for (const input of form.querySelectorAll('input[data-field]')) if (input.value) fields[input.name] = input.value
    pending = new AbortController()
    return passkeySignIn({
      provider: form.dataset.passkey, basePath: form.dataset.base, fields, mediation, signal: pending.signal,
      action: mediation ? 'authenticate' : undefined,
      csrfToken: form.elements.csrfToken.value, callbackUrl: form.elements.callbackUrl.value || undefined,
    }).then((url) => { window.location.href = url })
  }
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    // A pending autofill request would block the dialog.
    if (pending) pending.abort()
    run().catch((error) => { alert.hidden = false; alert.textContent = form.dataset.failed; console.warn(error) })
  })
  if (form.dataset.conditional === 'true' && window.PublicKeyCredential && PublicKeyCredential.isConditionalMediationAvailable) {
    PublicKeyCredential.isConditionalMediationAvailable().then((available) => { if (available) run('conditional').catch(() => {}) })
  }
}`

/** The inline `<script>` for a sign-in page with passkey forms. */
export function passkeyPageScript(): string {
  return `<script>(() => {\n${passkeySignInSource}\n${wiring}\n})()</script>`
}
