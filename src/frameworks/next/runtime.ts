/**
 * Authchart runs in Next.js's Node.js runtime: its sessions, CSRF tokens and flows use `node:crypto`, which the Edge
 * runtime does not have. Middleware in Next.js before 16 runs on the Edge by default (`proxy.ts` of Next.js 16 runs on
 * Node.js); there the Middleware must say `export const config = { runtime: 'nodejs' }`. Every entry of the binding
 * checks it first, so the failure names the fix instead of a missing module deep inside.
 */
import { InvalidConfig } from '../../errors.js'

export const edgeRuntimeMessage =
  'authchart/next runs in the Node.js runtime, not the Edge runtime: use proxy.ts (Next.js 16), or add `export const config = { runtime: "nodejs" }` to middleware.ts and `export const runtime = "nodejs"` to an edge route'

/** Throws at once when Next.js runs this code in the Edge runtime. */
export function assertNodeRuntime(): void {
  if (typeof process !== 'undefined' && process.env?.NEXT_RUNTIME === 'edge')
    throw new InvalidConfig(edgeRuntimeMessage)
}
