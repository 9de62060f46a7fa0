/** The one HTTP call each e-mail vendor provider makes, with the error handling they share. */
import type { EmailConfig } from '../types/providers.js'

/** The API key: the provider's `apiKey`, else `AUTH_<ID>_KEY` (the variable Auth.js reads for the same provider). */
export function vendorApiKey(provider: EmailConfig): string {
  const name = `AUTH_${provider.id.toUpperCase().replace(/-/g, '_')}_KEY`
  const key =
    provider.apiKey ?? (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name]
  if (!key) throw new Error(`no API key: set apiKey on the ${provider.id} provider, or ${name}`)
  return key
}

/** The API base: the provider's `apiUrl` when set (without a trailing slash), else the vendor's. */
export function vendorApiBase(provider: EmailConfig, vendorDefault: string): string {
  return (provider.apiUrl ?? vendorDefault).replace(/\/+$/, '')
}

/** Sends one request; a status outside 2xx becomes an error naming the vendor and status (the body is cut short). */
export async function sendVendorRequest(vendor: string, url: string, init: RequestInit): Promise<void> {
  const response = await fetch(url, { ...init, method: 'POST', signal: AbortSignal.timeout(10_000) })
  if (!response.ok) {
    const detail = (await response.text().catch(() => '')).slice(0, 200)
    throw new Error(`${vendor} answered ${response.status}${detail ? `: ${detail}` : ''}`)
  }
  await response.body?.cancel().catch(() => undefined)
}
