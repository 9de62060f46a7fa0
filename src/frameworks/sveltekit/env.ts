/**
 * Where the SvelteKit binding reads its environment defaults (AUTH_SECRET, AUTH_URL, AUTH_TRUST_HOST, provider ids
 * and secrets): the object the app hands over (SvelteKit's `$env/dynamic/private`), else `process.env`, with the
 * platform's per-request bindings (`event.platform.env`, as on Cloudflare) laid over it. Only string values count.
 */

export type EnvSource = Record<string, string | undefined>

function stringEntries(source: unknown): Array<[string, string]> {
  if (typeof source !== 'object' || source === null) return []
  const entries: Array<[string, string]> = []
  for (const key of Object.keys(source)) {
    const value: unknown = (source as Record<string, unknown>)[key]
    if (typeof value === 'string') entries.push([key, value])
  }
  return entries
}

function processEnv(): EnvSource {
  return typeof process === 'undefined' ? {} : process.env
}

/** The environment for one request: `given` (or `process.env`), then `platform.env` on top. */
export function environmentOf(given: EnvSource | undefined, platform: unknown): EnvSource {
  const platformEnv =
    typeof platform === 'object' && platform !== null ? (platform as { env?: unknown }).env : undefined
  const fromPlatform = stringEntries(platformEnv)
  const base = given ?? processEnv()
  if (fromPlatform.length === 0) return base
  return { ...Object.fromEntries(stringEntries(base)), ...Object.fromEntries(fromPlatform) }
}
