/**
 * What the user's authenticator app reads at enrolment: the `otpauth://` key URI (Google Authenticator's format,
 * which every app follows) and its QR code as SVG, to inline in a page (no script, no external image).
 */
import { toString as qrToString } from 'qrcode'
import { Secret, TOTP } from 'otpauth'
import { totpDefaults } from './totp.js'

/** Who the code is for, as the app lists it: `issuer (accountName)`. */
export interface TotpEnrolment {
  /** The site's name, e.g. the app's `theme.brandName` or host. */
  issuer: string
  /** The account, usually the e-mail address. */
  accountName: string
  /** The shared secret, base32. */
  secret: string
}

/** The `otpauth://totp/...` URI of an enrolment, with the default algorithm, digits and period spelled out. */
export function otpauthUri({ issuer, accountName, secret }: TotpEnrolment): string {
  return new TOTP({
    issuer,
    label: accountName,
    secret: Secret.fromBase32(secret),
    algorithm: totpDefaults.algorithm,
    digits: totpDefaults.digits,
    period: totpDefaults.period,
  }).toString()
}

/**
 * The QR code of `uri` as an SVG document. Error correction M (15 %) keeps the code small enough to scan from a
 * screen; the quiet zone is the 4 modules the QR standard asks for.
 */
export function enrolmentQrSvg(uri: string): Promise<string> {
  return qrToString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 4 })
}
