/**
 * `serverModule$(() => import(...))`: a lazy loader for the binding's server half that browser bundles never see.
 * Qwik's optimizer treats every imported `…$` call as a segment boundary and, when it builds for the browser,
 * empties the segments whose name starts with `server` (as it does for `server$` and `routeLoader$`). So the
 * `import()` of Authchart's core exists only in the server build, while the published binding stays one file
 * that the app's optimizer processes (its `.qwik.mjs` name and the package's `qwik` field say so).
 */
import { implicit$FirstArg, type QRL } from '@builder.io/qwik'

/** The `QRL` form the optimizer rewrites `serverModule$` to. */
export function serverModuleQrl<T>(loaderQrl: QRL<() => Promise<T>>): () => Promise<T> {
  return async () => {
    const load = await loaderQrl.resolve()
    return load()
  }
}

export const serverModule$: <T>(load: () => Promise<T>) => () => Promise<T> = implicit$FirstArg(serverModuleQrl)
