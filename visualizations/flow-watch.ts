/**
 * Watch your own app's flows live, per browser: `authchart/flow-watch`. Each browser gets a cookie with a random id;
 * every request runs with that id (AsyncLocalStorage), and the `onTransition` hook files each transition under the
 * browser whose request made it. The feed answers one browser's steps for the inspector's live view
 * (`toInspectorHtml(graphs, { live: { feedUrl } })`).
 *
 * ```ts
 * const watch = createFlowWatch()
 * const config = { ...authConfig, onTransition: watch.record }
 * app.use(watch.middleware)                                  // Express / Connect / node:http
 * app.get('/dev/flow.json', (req, res) => res.json({ steps: watch.feed(req.headers.cookie) }))
 * // fetch-style hosts: return watch.handle(request, (r) => Auth(r, config))
 * ```
 *
 * A development aid kept in memory (the last `maxSteps` steps of the last `maxBrowsers` browsers), not an audit
 * store: mount it only where the people watching may see every flow of their own browser.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { randomBytes } from 'node:crypto'

/** One step as the live view shows it: the fields of Authchart's `TransitionRecord`. */
export interface WatchedStep {
  machine: string
  flowId: string
  from: string
  to: string
  event: string
  at: number
}

/** Options of `createFlowWatch`. */
export interface FlowWatchOptions {
  /** The cookie that names the browser. Default `authchart-watch`. */
  cookieName?: string
  /** Steps kept per browser. Default 50. */
  maxSteps?: number
  /** Browsers kept; the least recently active goes first. Default 200. */
  maxBrowsers?: number
}

/** The smallest part of a node:http (or Express) request and response the middleware needs. */
interface NodeRequestLike {
  headers: { cookie?: string }
}
interface NodeResponseLike {
  appendHeader?(name: string, value: string): unknown
  getHeader(name: string): unknown
  setHeader(name: string, value: string | string[]): unknown
}

export interface FlowWatch {
  /** The `onTransition` hook: files the transition under the browser whose request is running. */
  record(step: WatchedStep): void
  /** node:http / Express / Connect middleware: names the browser and runs the rest of the request as it. */
  middleware(req: NodeRequestLike, res: NodeResponseLike, next: () => void): void
  /** Fetch-style hosts: runs `handler` as the request's browser and adds the cookie to a new browser's answer. */
  handle(request: Request, handler: (request: Request) => Response | Promise<Response>): Promise<Response>
  /** The steps of the browser whose `Cookie` header this is, oldest first. */
  feed(cookieHeader: string | null | undefined): WatchedStep[]
}

const idPattern = /^[A-Za-z0-9_-]{16,32}$/

/** Creates a watcher. Give its `record` to the config's `onTransition` and mount its middleware (or `handle`). */
export function createFlowWatch(options: FlowWatchOptions = {}): FlowWatch {
  const cookieName = options.cookieName ?? 'authchart-watch'
  const maxSteps = options.maxSteps ?? 50
  const maxBrowsers = options.maxBrowsers ?? 200
  const current = new AsyncLocalStorage<string>()
  const steps = new Map<string, WatchedStep[]>()

  const browserIdFrom = (cookieHeader: string | null | undefined): string | undefined => {
    for (const part of (cookieHeader ?? '').split(';')) {
      const eq = part.indexOf('=')
      // Only ids this watcher could have made: anything else is ignored and replaced.
      if (eq > 0 && part.slice(0, eq).trim() === cookieName) {
        const value = part.slice(eq + 1).trim()
        if (idPattern.test(value)) return value
      }
    }
    return undefined
  }
  const newBrowser = () => {
    const id = randomBytes(12).toString('base64url')
    return { id, cookie: `${cookieName}=${id}; Path=/; HttpOnly; SameSite=Lax` }
  }

  return {
    record(step) {
      const id = current.getStore()
      if (!id) return
      const list = steps.get(id) ?? []
      // Re-inserting keeps the Map in least-recently-active order, so the oldest browser is the first to go.
      steps.delete(id)
      steps.set(id, list)
      const { machine, flowId, from, to, event, at } = step
      list.push({ machine, flowId, from, to, event, at })
      if (list.length > maxSteps) list.splice(0, list.length - maxSteps)
      if (steps.size > maxBrowsers) {
        const oldest = steps.keys().next()
        if (!oldest.done) steps.delete(oldest.value)
      }
    },

    middleware(req, res, next) {
      let id = browserIdFrom(req.headers.cookie)
      if (!id) {
        const made = newBrowser()
        id = made.id
        const previous = res.getHeader('set-cookie')
        const lines = Array.isArray(previous)
          ? previous.filter((line): line is string => typeof line === 'string')
          : typeof previous === 'string'
            ? [previous]
            : []
        res.setHeader('set-cookie', [...lines, made.cookie])
      }
      current.run(id, next)
    },

    async handle(request, handler) {
      const known = browserIdFrom(request.headers.get('cookie'))
      const made = known ? undefined : newBrowser()
      const response = await current.run(known ?? made?.id ?? '', () => handler(request))
      if (!made) return response
      // A handler's Response may have immutable headers (a fetch() answer): copy it before adding the cookie.
      const answer = new Response(response.body, response)
      answer.headers.append('set-cookie', made.cookie)
      return answer
    },

    feed(cookieHeader) {
      const id = browserIdFrom(cookieHeader)
      return id ? [...(steps.get(id) ?? [])] : []
    },
  }
}
