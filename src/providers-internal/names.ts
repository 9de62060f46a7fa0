/** Small helpers the vendor `profile()` functions share. */

/** Given and family name joined with a space; null when both are missing. */
export function joinName(...parts: (string | null | undefined)[]): string | null {
  const present = parts.map((part) => part?.trim()).filter((part): part is string => Boolean(part))
  return present.length > 0 ? present.join(' ') : null
}

/** The value when it is a non-empty string, else null. */
export function textOrNull(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null
}

/** A base URL without its trailing slashes, so `${base}/path` never has two. */
export function trimSlash(url: string): string {
  return url.replace(/\/+$/, '')
}

/** A process environment variable where there is a process (Node, Bun, Deno's compatibility layer); else undefined. */
export function environmentVariable(name: string): string | undefined {
  const value = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name]
  return value === '' ? undefined : value
}
