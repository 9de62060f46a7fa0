/**
 * Security invariants read from a machine's definition (entry commands, tags, final states) and from its generated
 * paths. Each check returns the violations it finds, so a test can assert none on the real machines and the
 * expected ones on a deliberately broken machine.
 */
import * as errors from '../../src/errors.js'
import { machineConventions, type MachineEntry } from '../../machines/machine-entry.js'
import { describeEntry, type FlowGraph } from '../../visualizations/describe-machine.js'
import { activeStatePaths, type FlowPath } from './flow-paths.js'
import { scalarText } from '../../src/security/scalar-text.js'

/** The spec's value sets of the `error` query parameter (sign-in page and error page). */
export const specErrorValues = {
  signIn: [
    'Signin',
    'OAuthSignin',
    'OAuthCallbackError',
    'OAuthCreateAccount',
    'EmailCreateAccount',
    'Callback',
    'OAuthAccountNotLinked',
    'EmailSignin',
    'CredentialsSignin',
    'SessionRequired',
  ],
  error: ['Configuration', 'AccessDenied', 'Verification'],
} as const

type AuthErrorClass = new (message?: string) => errors.AuthError

/** Every AuthError subclass by its `type`. */
const errorClasses = new Map<string, AuthErrorClass>()
for (const value of Object.values(errors)) {
  if (typeof value === 'function' && value.prototype instanceof errors.AuthError) {
    const cls = value as unknown as AuthErrorClass & { type: string }
    if (!errorClasses.has(cls.type) || cls.name === cls.type) errorClasses.set(cls.type, cls)
  }
}

function commandsOf(graph: FlowGraph, path: string): string[] {
  return graph.states.find((s) => s.path === path)?.entry.map((a) => a.name) ?? []
}

/** State paths entered when a transition targets `path`: the state, and its initial descendants. */
function entered(graph: FlowGraph, path: string): string[] {
  const out = [path]
  let state = graph.states.find((s) => s.path === path)
  while (state?.initial) {
    out.push(state.initial)
    state = graph.states.find((s) => s.path === state!.initial)
  }
  return out
}

/** Where the machine can go from `path`, guards ignored: its own transitions and those of its ancestors. */
function successors(graph: FlowGraph, path: string): string[] {
  const sources = graph.states.filter((s) => path === s.path || path.startsWith(`${s.path}.`)).map((s) => s.path)
  return graph.transitions
    .filter((t) => sources.includes(t.source))
    .flatMap((t) => (t.targets.length ? t.targets : [t.source]).flatMap((p) => entered(graph, p)))
}

/**
 * No session without the signIn callback: searching the state graph from the initial state (guards ignored, so an
 * over-approximation) without passing a state that runs `runSignInCallback` must not reach one that runs `issueSession`.
 */
export function sessionWithoutSignIn(entry: MachineEntry): string[] {
  const graph = describeEntry(entry)
  const seen = new Set<string>()
  const queue = entered(graph, graph.initial)
  const violations: string[] = []
  while (queue.length > 0) {
    const path = queue.shift()!
    if (seen.has(path)) continue
    seen.add(path)
    const commands = commandsOf(graph, path)
    if (commands.includes(machineConventions.issueSessionCommand))
      violations.push(`${entry.id}: ${path} issues a session on a path that skips the signIn callback`)
    if (commands.includes(machineConventions.signInCommand)) continue
    queue.push(...successors(graph, path))
  }
  return violations
}

/** The same rule on generated paths: along each path, `issueSession` runs only after `runSignInCallback`. */
export function sessionBeforeSignInOnPaths(entry: MachineEntry, paths: readonly FlowPath[]): string[] {
  const graph = describeEntry(entry)
  const violations: string[] = []
  for (const path of paths) {
    const commands = path.steps.flatMap((s) => activeStatePaths(s.state.value).flatMap((p) => commandsOf(graph, p)))
    const issued = commands.indexOf(machineConventions.issueSessionCommand)
    const signIn = commands.indexOf(machineConventions.signInCommand)
    if (issued >= 0 && (signIn < 0 || signIn > issued)) {
      violations.push(
        `${entry.id}: ${path.steps.map((s) => s.event.type).join(' › ')} issues a session before the signIn callback`,
      )
    }
  }
  return violations
}

/**
 * Every final state clears the stored flow: a final state must not wait for the browser (the runtime would have to
 * keep it) nor run a command (its answer would arrive after the flow was deleted). And every other state either
 * waits (tagged) or works (runs a command), so that no request stops in a state nobody resumes.
 */
export function statesThatKeepAFlow(entry: MachineEntry): string[] {
  const graph = describeEntry(entry)
  const violations: string[] = []
  for (const s of graph.states) {
    const waits = s.tags.includes(machineConventions.awaitingBrowserTag)
    const commands = s.entry.filter((a) => a.name !== 'assign')
    if (s.type === 'final' && waits)
      violations.push(`${entry.id}: final state ${s.path} is tagged ${machineConventions.awaitingBrowserTag}`)
    if (s.type === 'final' && commands.length > 0)
      violations.push(`${entry.id}: final state ${s.path} runs ${commands.map((c) => c.name).join(', ')}`)
    const eventless = graph.transitions.some((t) => t.source === s.path && t.event === 'always')
    if (s.type === 'atomic' && !waits && commands.length === 0 && !eventless && s.path !== graph.initial) {
      violations.push(`${entry.id}: ${s.path} neither waits for the browser nor runs a command`)
    }
  }
  return violations
}

/**
 * No redirect outside the redirect callback: wherever a path ends in an outcome that sends the browser to
 * `context.redirectTo` (every final state but `failed`, which goes to the error page), the target must be a URL the
 * redirect callback answered on that path; and a state named `redirected` is entered only from a state that runs the
 * redirect callback.
 */
export function redirectsOutsideCallback(entry: MachineEntry, paths: readonly FlowPath[]): string[] {
  const graph = describeEntry(entry)
  const violations: string[] = []
  for (const t of graph.transitions) {
    if (
      t.targets.some((p) => p.split('.').at(-1) === 'redirected') &&
      !commandsOf(graph, t.source).includes(machineConventions.redirectCommand)
    ) {
      violations.push(`${entry.id}: ${t.source} --${t.event}--> redirected without the redirect callback`)
    }
  }
  for (const path of paths) {
    // Mid-flow a proposed target may sit in context (the signIn callback's URL, before the redirect callback has
    // ruled on it); what counts is where a finished flow sends the browser.
    const redirectTo = (path.state.context as { redirectTo?: unknown }).redirectTo
    const end = activeStatePaths(path.state.value).at(-1)!
    if (path.state.status !== 'done' || end.split('.').at(-1) === 'failed' || redirectTo === undefined) continue
    const answered = new Set<unknown>()
    path.steps.forEach((s, i) => {
      if (i === 0) return
      const before = activeStatePaths(path.steps[i - 1].state.value)
      if (before.some((p) => commandsOf(graph, p).includes(machineConventions.redirectCommand)))
        answered.add((s.event as { url?: unknown }).url)
    })
    if (!answered.has(redirectTo)) {
      violations.push(
        `${entry.id}: ${path.steps.map((s) => s.event.type).join(' › ')} ends redirecting to ${scalarText(redirectTo)}, which the redirect callback never answered`,
      )
    }
  }
  return violations
}

/**
 * Every error state maps to one of the spec's error values: each error a definition names, and each error a path
 * ends with, is an AuthError type whose page value is in the spec's sets; failed states always carry one.
 */
export function errorsOutsideSpec(entry: MachineEntry, paths: readonly FlowPath[]): string[] {
  const graph = describeEntry(entry)
  const violations: string[] = []
  const check = (type: unknown, where: string): void => {
    const cls = typeof type === 'string' ? errorClasses.get(type) : undefined
    if (!cls) {
      violations.push(`${entry.id}: ${where} sets error ${String(type)}, which is no AuthError type`)
      return
    }
    const shown = errors.errorPageValue(new cls())
    const allowed: readonly string[] = specErrorValues[shown.page]
    if (!allowed.includes(shown.value))
      violations.push(`${entry.id}: ${where}: ${String(type)} shows as ${shown.value}, not a spec value`)
  }
  for (const t of graph.transitions) {
    for (const a of t.actions) {
      const m = /^\w+\((\w+)\)$/.exec(a.text)
      if (m && (a.name === 'fail' || a.name === 'setError')) check(m[1], `${t.source} --${t.event}-->`)
    }
  }
  for (const path of paths) {
    const error = (path.state.context as { error?: unknown }).error
    const end = activeStatePaths(path.state.value).at(-1)!
    const where = `${path.steps.map((s) => s.event.type).join(' › ')} → ${end}`
    if (error !== undefined) check(error, where)
    if (end.split('.').at(-1) === 'failed' && error === undefined)
      violations.push(`${entry.id}: ${where} fails without an error`)
    if (end.split('.').at(-1) !== 'failed' && error !== undefined)
      violations.push(`${entry.id}: ${where} carries error ${scalarText(error)} but does not end in failed`)
  }
  return violations
}

/**
 * No session without the second-factor check: searching the state graph from the initial state (guards ignored)
 * without passing a state that runs `checkSecondFactor` must not reach one that runs `issueSession`. With the walk
 * of the completion below, this is the proof for every composed machine: each reaches the session only through the
 * check, and from the check on, the graph is the completion's own, walked once with every answer.
 */
export function sessionWithoutSecondFactorCheck(entry: MachineEntry): string[] {
  const graph = describeEntry(entry)
  const seen = new Set<string>()
  const queue = entered(graph, graph.initial)
  const violations: string[] = []
  while (queue.length > 0) {
    const path = queue.shift()!
    if (seen.has(path)) continue
    seen.add(path)
    const commands = commandsOf(graph, path)
    if (commands.includes(machineConventions.issueSessionCommand))
      violations.push(`${entry.id}: ${path} issues a session on a path that skips the second-factor check`)
    if (commands.includes(machineConventions.secondFactorCheckCommand)) continue
    queue.push(...successors(graph, path))
  }
  return violations
}

/** Does the check's answer say the user holds a factor the first one does not already stand in for? */
function challengedBy(event: { type: string }): boolean {
  const e = event as { type: string; enrolled?: unknown; passkeyUserVerified?: unknown; passkeyCountsAsTwo?: unknown }
  const countsAsTwo = e.passkeyUserVerified === true && e.passkeyCountsAsTwo === true
  return e.type === 'SECOND_FACTOR_CHECKED' && e.enrolled === true && !countsAsTwo
}

/**
 * On generated paths: once the check found an enrolled factor, `issueSession` runs only after a `FACTOR_VERIFIED`
 * answered the state that verifies the challenge.
 */
export function sessionWithoutChallengeOnPaths(entry: MachineEntry, paths: readonly FlowPath[]): string[] {
  const graph = describeEntry(entry)
  const violations: string[] = []
  const runs = (stepIndex: number, path: FlowPath, command: string) =>
    activeStatePaths(path.steps[stepIndex].state.value).some((p) => commandsOf(graph, p).includes(command))
  for (const path of paths) {
    const checked = path.steps.findIndex((s) => challengedBy(s.event))
    if (checked < 0) continue
    const issued = path.steps.findIndex((_, i) => i >= checked && runs(i, path, machineConventions.issueSessionCommand))
    if (issued < 0) continue
    const passed = path.steps.some(
      (s, i) =>
        i > checked &&
        i <= issued &&
        s.event.type === 'FACTOR_VERIFIED' &&
        runs(i - 1, path, machineConventions.secondFactorVerifyCommand),
    )
    if (!passed)
      violations.push(
        `${entry.id}: ${path.steps.map((s) => s.event.type).join(' › ')} issues a session for a user with an enrolled factor without a passed challenge`,
      )
  }
  return violations
}

/** The states of the challenge, from the check to the session, as every composed machine names them. */
export const challengeStates = [
  'completingSignIn.checkingSecondFactor',
  'completingSignIn.awaitingSecondFactor',
  'completingSignIn.reservingFactorAttempt',
  'completingSignIn.verifyingSecondFactor',
  // A sign-in held for enrolment (secondFactor 'required', no factor yet): walked with the challenge, not per machine.
  'completingSignIn.issuingEnrolmentSession',
  'completingSignIn.issuingSession',
  'completingSignIn.announcingSignIn',
] as const

/** The challenge's transitions in `entry`, as text: the same in every machine that composes the completion. */
export function challengeSubgraph(entry: MachineEntry): string[] {
  const graph = describeEntry(entry)
  const inChallenge: readonly string[] = challengeStates
  return graph.transitions
    .filter((t) => inChallenge.includes(t.source))
    .map(
      (t) =>
        `${t.source} --${t.event}${t.guard ? ` [${t.guard.text}]` : ''}--> ${t.targets.join(',')} / ${t.actions.map((a) => a.text).join(', ')}`,
    )
    .sort()
}
