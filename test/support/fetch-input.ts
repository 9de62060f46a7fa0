/** The URL a `fetch` call was made with, whichever of its three input forms the caller used. */
export function urlOfFetchInput(input: string | URL | Request): string {
  if (typeof input === 'string') return input
  return input instanceof URL ? input.href : input.url
}
