/** The client's address as SvelteKit knows it, handed to `Auth()` with each request the binding makes for a browser. */
import type { RequestEvent } from '@sveltejs/kit'
import { setClientAddress } from '../../core/client-address.js'

/**
 * The client's address as SvelteKit's adapter knows it (`getClientAddress()`, which follows the adapter's own
 * `ADDRESS_HEADER` / `XFF_DEPTH` settings); undefined when the adapter cannot tell (it throws then).
 */
export function clientAddressOfEvent(event: RequestEvent): string | undefined {
  try {
    return event.getClientAddress()
  } catch {
    return undefined
  }
}

/** `request`, with the address of the client behind `event`: the request limits key it by that. */
export function withClient(request: Request, event: RequestEvent): Request {
  setClientAddress(request, clientAddressOfEvent(event))
  return request
}
