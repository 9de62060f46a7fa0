/**
 * A software WebAuthn authenticator for Node-side tests (ES256, "none" attestation), written from the WebAuthn Level 2
 * data formats. Real browsers with the DevTools virtual authenticator cover the honest path end to end
 * (test/e2e/passkeys-browser.test.ts); this one exists to make the answers a browser will not make: a chosen
 * counter, a foreign origin or RP id, a broken signature, a replayed response.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto'

type Cbor = number | string | Uint8Array | Cbor[] | Map<number | string, Cbor> | { [key: string]: Cbor }

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length])
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length])
  if (length < 0x10000) return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff])
  const out = Buffer.alloc(5)
  out[0] = (major << 5) | 26
  out.writeUInt32BE(length, 1)
  return out
}

/** Canonical-enough CBOR (RFC 8949) for the handful of shapes WebAuthn uses. */
export function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value)
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8')
    return Buffer.concat([head(3, bytes.length), bytes])
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)])
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cbor)])
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value)
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([k, v]) => [cbor(k), cbor(v)])])
}

const sha256 = (data: Buffer | string): Buffer => createHash('sha256').update(data).digest()
const b64url = (data: Buffer | Uint8Array): string => Buffer.from(data).toString('base64url')

export interface SoftCredential {
  id: Buffer
  privateKey: KeyObject
  publicKeyCose: Buffer
  counter: number
  userHandle: string
}

export interface CeremonyOverrides {
  origin?: string
  rpId?: string
  challenge?: string
  /** The counter the authenticator reports (default: one more than the last). */
  counter?: number
  /** Flip a byte of the signature. */
  tamperSignature?: boolean
  /** Whether the assertion says the user was verified (the UV flag); true by default, as a passkey asks. */
  userVerified?: boolean
}

/** One authenticator holding discoverable ES256 credentials. */
export class SoftAuthenticator {
  readonly credentials: SoftCredential[] = []

  constructor(private readonly origin: string) {}

  private authData(rpId: string, flags: number, counter: number, attested?: Buffer): Buffer {
    const count = Buffer.alloc(4)
    count.writeUInt32BE(counter >>> 0)
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])])
  }

  /** navigator.credentials.create(): the RegistrationResponseJSON for the server's creation options. */
  create(
    options: { challenge: string; rp: { id?: string }; user: { id: string } },
    overrides: CeremonyOverrides = {},
  ): Record<string, unknown> {
    const rpId = overrides.rpId ?? options.rp.id ?? new URL(this.origin).hostname
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
    const jwk = publicKey.export({ format: 'jwk' })
    const publicKeyCose = cbor(
      new Map<number, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x as string, 'base64url')],
        [-3, Buffer.from(jwk.y as string, 'base64url')],
      ]),
    )
    const id = randomBytes(16)
    const credential: SoftCredential = {
      id,
      privateKey,
      publicKeyCose,
      counter: overrides.counter ?? 0,
      userHandle: options.user.id,
    }
    const credentialLength = Buffer.alloc(2)
    credentialLength.writeUInt16BE(id.length)
    const attested = Buffer.concat([Buffer.alloc(16), credentialLength, id, publicKeyCose])
    // UP | UV | AT
    const authData = this.authData(rpId, 0x01 | 0x04 | 0x40, credential.counter, attested)
    const clientDataJSON = JSON.stringify({
      type: 'webauthn.create',
      challenge: overrides.challenge ?? options.challenge,
      origin: overrides.origin ?? this.origin,
      crossOrigin: false,
    })
    this.credentials.push(credential)
    return {
      id: b64url(id),
      rawId: b64url(id),
      type: 'public-key',
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
      response: {
        clientDataJSON: b64url(Buffer.from(clientDataJSON)),
        attestationObject: b64url(cbor({ fmt: 'none', attStmt: {}, authData })),
        transports: ['internal'],
      },
    }
  }

  /** navigator.credentials.get(): the AuthenticationResponseJSON of `credential` (the first one by default). */
  get(
    options: { challenge: string; rpId?: string },
    overrides: CeremonyOverrides = {},
    credential = this.credentials[0],
  ): Record<string, unknown> {
    if (!credential) throw new Error('the soft authenticator holds no credential')
    const rpId = overrides.rpId ?? options.rpId ?? new URL(this.origin).hostname
    credential.counter = overrides.counter ?? credential.counter + 1
    // UP, and UV unless the test asks for an assertion without user verification.
    const authenticatorData = this.authData(
      rpId,
      overrides.userVerified === false ? 0x01 : 0x01 | 0x04,
      credential.counter,
    )
    const clientDataJSON = Buffer.from(
      JSON.stringify({
        type: 'webauthn.get',
        challenge: overrides.challenge ?? options.challenge,
        origin: overrides.origin ?? this.origin,
        crossOrigin: false,
      }),
    )
    const signature = sign('sha256', Buffer.concat([authenticatorData, sha256(clientDataJSON)]), credential.privateKey)
    if (overrides.tamperSignature) signature[signature.length - 1] ^= 0x01
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key',
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authenticatorData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
    }
  }
}
