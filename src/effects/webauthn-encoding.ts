/**
 * How authenticators are written down, the Auth.js way: credential id and public key as standard (padded) base64,
 * transports as one comma-separated string. Browsers and `@simplewebauthn` speak base64url; both spell the same bytes.
 */

/** Any base64 or base64url spelling of a credential id, as the standard base64 an authenticator row holds. */
export function credentialIdToBase64(id: string): string {
  return Buffer.from(id, 'base64url').toString('base64')
}

export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64')
}

/** Bytes of a base64 or base64url string (Node decodes both alphabets). */
export function fromBase64(value: string): Uint8Array<ArrayBuffer> {
  const buffer = Buffer.from(value, 'base64')
  const bytes = new Uint8Array(new ArrayBuffer(buffer.length))
  bytes.set(buffer)
  return bytes
}

export function transportsToString(transports: readonly string[] | undefined): string | undefined {
  return transports && transports.length > 0 ? transports.join(',') : undefined
}

export function transportsFromString(transports: string | null | undefined): string[] | undefined {
  return transports
    ? transports
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean)
    : undefined
}
