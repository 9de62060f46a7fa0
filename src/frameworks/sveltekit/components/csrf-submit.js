// Shared by SignIn.svelte and SignOut.svelte: before the form goes, fetch a CSRF token from Auth() (which sets its
// cookie) and put it in the form, so the action can hand Auth() a double-submitted token. Should the fetch fail,
// the form still goes without one: the action then relies on its same-origin check alone.

/** @param {SubmitEvent} submitEvent @param {string} basePath */
export async function submitWithCsrfToken(submitEvent, basePath) {
  const form = /** @type {HTMLFormElement} */ (submitEvent.currentTarget)
  const input = form.elements.namedItem('csrfToken')
  if (!(input instanceof HTMLInputElement) || input.value !== '') return
  submitEvent.preventDefault()
  try {
    const response = await fetch(`${basePath}/csrf`, { credentials: 'same-origin' })
    const body = await response.json()
    if (body && typeof body.csrfToken === 'string') input.value = body.csrfToken
  } finally {
    form.submit()
  }
}
