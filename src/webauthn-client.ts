/// <reference lib="dom" />
/**
 * The browser half of passkeys, for an app's own sign-in page: asks Authchart for options, lets the browser talk to
 * the authenticator, posts the answer back and returns where to go next. The built-in sign-in page inlines this very
 * function, so it must stay self-contained: no imports, no module-level helpers. See docs/passkeys.md.
 * @module webauthn-client
 */

export interface PasskeySignInOptions {
  /** The provider id (`passkey` or `webauthn`). */
  provider: string
  /** Where Authchart is mounted, as an absolute path or URL (default `/auth`). */
  basePath?: string
  /** Force a ceremony; by default Authchart decides (register for a new e-mail or a signed-in user). */
  action?: 'register' | 'authenticate'
  /** Form fields sent with the options request, such as `{ email }`. */
  fields?: Record<string, string>
  /** Where to land after signing in. */
  callbackUrl?: string
  /** `conditional` offers the passkeys in the browser's autofill instead of a dialog (authentication only). */
  mediation?: 'conditional' | 'optional' | 'required' | 'silent'
  /** The CSRF token; fetched from `<basePath>/csrf` when not given. */
  csrfToken?: string
  /** Aborts the browser's request (a pending autofill request must be aborted before a dialog can open). */
  signal?: AbortSignal
}

/**
 * Registers or signs in with a passkey.
 * @returns the URL Authchart sends the browser to (the callback URL, or the sign-in page with an error)
 */
export async function passkeySignIn(options: PasskeySignInOptions): Promise<string> {
  const bytes = (value: string): ArrayBuffer => {
    const text = atob(value.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((value.length + 3) % 4))
    const out = new Uint8Array(text.length)
    for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i)
    return out.buffer
  }
  const text = (buffer: ArrayBuffer | null): string | undefined => {
    if (!buffer) return undefined
    let binary = ''
    for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte)
    return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
  }
  const base = (options.basePath ?? '/auth').replace(/\/+$/, '')
  const query = new URLSearchParams(options.fields ?? {})
  if (options.action) query.set('action', options.action)
  const answer = await fetch(`${base}/webauthn-options/${encodeURIComponent(options.provider)}?${query}`, {
    credentials: 'same-origin',
  })
  const body = (await answer.json()) as { action?: string; options?: Record<string, unknown>; error?: string }
  if (!answer.ok || !body.options) throw new Error(`passkey options refused: ${body.error ?? answer.status}`)
  type Descriptor = { id: string; type: string; transports?: string[] }
  const listed = (list: unknown): PublicKeyCredentialDescriptor[] | undefined =>
    Array.isArray(list)
      ? (list as Descriptor[]).map((d) => ({ ...d, id: bytes(d.id) }) as PublicKeyCredentialDescriptor)
      : undefined
  let data: Record<string, unknown>
  if (body.action === 'register') {
    const o = body.options as { challenge: string; user: { id: string }; excludeCredentials?: unknown } & Record<
      string,
      unknown
    >
    const publicKey = {
      ...o,
      challenge: bytes(o.challenge),
      user: { ...o.user, id: bytes(o.user.id) },
      excludeCredentials: listed(o.excludeCredentials),
    } as unknown as PublicKeyCredentialCreationOptions
    const credential = (await navigator.credentials.create({
      publicKey,
      signal: options.signal,
    })) as PublicKeyCredential | null
    if (!credential) throw new Error('no passkey was created')
    const response = credential.response as AuthenticatorAttestationResponse
    data = {
      id: credential.id,
      rawId: text(credential.rawId),
      type: credential.type,
      authenticatorAttachment: credential.authenticatorAttachment ?? undefined,
      clientExtensionResults: credential.getClientExtensionResults(),
      response: {
        clientDataJSON: text(response.clientDataJSON),
        attestationObject: text(response.attestationObject),
        transports: response.getTransports?.() ?? [],
      },
    }
  } else {
    const o = body.options as { challenge: string; allowCredentials?: unknown } & Record<string, unknown>
    const publicKey = {
      ...o,
      challenge: bytes(o.challenge),
      allowCredentials: listed(o.allowCredentials),
    } as unknown as PublicKeyCredentialRequestOptions
    const credential = (await navigator.credentials.get({
      publicKey,
      mediation: options.mediation,
      signal: options.signal,
    })) as PublicKeyCredential | null
    if (!credential) throw new Error('no passkey was chosen')
    const response = credential.response as AuthenticatorAssertionResponse
    data = {
      id: credential.id,
      rawId: text(credential.rawId),
      type: credential.type,
      authenticatorAttachment: credential.authenticatorAttachment ?? undefined,
      clientExtensionResults: credential.getClientExtensionResults(),
      response: {
        clientDataJSON: text(response.clientDataJSON),
        authenticatorData: text(response.authenticatorData),
        signature: text(response.signature),
        userHandle: text(response.userHandle),
      },
    }
  }
  const csrfToken =
    options.csrfToken ??
    ((await (await fetch(`${base}/csrf`, { credentials: 'same-origin' })).json()) as { csrfToken: string }).csrfToken
  const form = new URLSearchParams({
    action: body.action ?? 'authenticate',
    data: JSON.stringify(data),
    csrfToken,
    callbackUrl: options.callbackUrl ?? location.href,
  })
  const done = await fetch(`${base}/callback/${encodeURIComponent(options.provider)}`, {
    method: 'POST',
    credentials: 'same-origin',
    body: form,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-auth-return-redirect': '1' },
  })
  return ((await done.json()) as { url: string }).url
}
