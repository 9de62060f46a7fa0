/**
 * The default address normalisation: Unicode NFKC first (a full-width `＠` becomes `@` and is then seen by the
 * single-address check, instead of by a mail library later), then trimmed and lower-cased. Whether the result is one
 * plain address is the machine's check (`isSingleMailAddress`), not this function's.
 */
export function normalizeEmailAddress(input: string): string {
  return input.normalize('NFKC').trim().toLowerCase()
}
