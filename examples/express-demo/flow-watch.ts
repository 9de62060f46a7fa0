/**
 * The demo's live view of the flow: each browser gets a `demo-browser` cookie, every request runs with that id in
 * an AsyncLocalStorage, and the `onTransition` audit hook files each transition under the browser whose request made
 * it. `/dev/flow.json` answers one browser's steps; the inspector page polls it and highlights the current state.
 * Kept in memory, the last 50 steps of the last 200 browsers: a development aid, not an audit store.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { randomBytes } from 'node:crypto'
import type { NextFunction, Request, Response } from 'express'
import type { TransitionRecord } from '../../src/types/index.js'

/** One step as the live view shows it. */
export interface WatchedStep {
  machine: string
  flowId: string
  from: string
  to: string
  event: string
  at: number
}

const cookieName = 'demo-browser'
const maxSteps = 50
const maxBrowsers = 200

function browserIdFrom(cookieHeader: string | undefined): string | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const [name, value] = part.trim().split('=')
    // Only ids this demo could have made: anything else is ignored and replaced.
    if (name === cookieName && value && /^[A-Za-z0-9_-]{16,32}$/.test(value)) return value
  }
  return undefined
}

/** The watcher: the middleware that tags requests, the hook that records, and the per-browser feed. */
export function createFlowWatch() {
  const current = new AsyncLocalStorage<string>()
  const steps = new Map<string, WatchedStep[]>()

  const middleware = (req: Request, res: Response, next: NextFunction) => {
    let id = browserIdFrom(req.get('cookie'))
    if (!id) {
      id = randomBytes(12).toString('base64url')
      res.append('Set-Cookie', `${cookieName}=${id}; Path=/; HttpOnly; SameSite=Lax`)
    }
    current.run(id, next)
  }

  const record = (t: TransitionRecord) => {
    const id = current.getStore()
    if (!id) return
    const list = steps.get(id) ?? []
    // Re-inserting keeps the Map in least-recently-active order, so the oldest browser is the first to go.
    steps.delete(id)
    steps.set(id, list)
    list.push({ machine: t.machine, flowId: t.flowId, from: t.from, to: t.to, event: t.event, at: t.at })
    if (list.length > maxSteps) list.splice(0, list.length - maxSteps)
    if (steps.size > maxBrowsers) steps.delete(steps.keys().next().value as string)
  }

  /** The steps of the browser that sent `req`, oldest first. */
  const feed = (req: Request): WatchedStep[] => {
    const id = browserIdFrom(req.get('cookie'))
    return id ? [...(steps.get(id) ?? [])] : []
  }

  return { middleware, record, feed }
}
