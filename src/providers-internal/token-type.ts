/**
 * Token endpoint answers without `token_type`. RFC 6749 §5.1 requires the member, and the token checks refuse any
 * type but bearer; several vendors (VK, Instagram, Threads, Foursquare, WeChat, ...) leave it out although what they
 * issue is used as a bearer token. This conform step names the type those vendors document, and nothing else.
 */

/** A `token.conform` that adds `token_type: "bearer"` to a successful JSON answer that has none. */
export async function bearerWhenUntyped(response: Response): Promise<Response | undefined> {
  if (!response.ok) return undefined
  let body: unknown
  try {
    body = await response.json()
  } catch {
    return undefined
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined
  const record = body as Record<string, unknown>
  if (record.token_type !== undefined || record.error !== undefined) return undefined
  return Response.json({ ...record, token_type: 'bearer' }, { status: response.status })
}
