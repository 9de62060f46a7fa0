/**
 * The passkey scripts of the sign-in and challenge pages, served inline by Authchart (nothing is fetched from
 * elsewhere, as the pages' styles): the client helpers of src/webauthn-client.ts, then the page's wiring. The
 * failure text comes from a `data-failed` attribute, in the page's language.
 * The helpers come as a static string (passkey-client-source.ts), never as `passkeySignIn.toString()`: a function's
 * text is whatever the module loader made of it, and tsx (`npm start`) puts its own `__name` helper in it.
 */
import { passkeyClientSource } from './passkey-client-source.js'

/** Each passkey form of the sign-in page: the button, and the autofill request when conditional UI is on. */
const signInWiring = `
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

/**
 * The challenge page's passkey button: shown only where the browser has WebAuthn (without JavaScript it stays hidden
 * and the codes answer), it runs the assertion and follows the finished sign-in; a refusal shows the failure text and
 * the button again, since the challenge still waits.
 */
const challengeWiring = `
for (const block of document.querySelectorAll('[data-passkey-answer]')) {
  if (!window.PublicKeyCredential) continue
  block.hidden = false
  const alert = block.querySelector('p.error')
  const button = block.querySelector('button')
  const token = document.querySelector('input[name=csrfToken]')
  button.addEventListener('click', () => {
    alert.hidden = true
    button.disabled = true
    passkeySecondFactor({ basePath: block.dataset.base, csrfToken: (token && token.value) || undefined })
      .then((url) => { window.location.href = url })
      .catch((error) => { alert.textContent = block.dataset.failed; alert.hidden = false; button.disabled = false; console.warn(error) })
  })
}`

const inline = (wiring: string) => `<script>(() => {\n${passkeyClientSource}\n${wiring}\n})()</script>`

/** The inline `<script>` for a sign-in page with passkey forms. */
export function passkeyPageScript(): string {
  return inline(signInWiring)
}

/** The inline `<script>` for a challenge page with the passkey button. */
export function passkeyChallengeScript(): string {
  return inline(challengeWiring)
}
