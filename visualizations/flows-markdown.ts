/**
 * The text of docs/flows.md: the Mermaid chart of every built-in machine. It is generated, and a test fails when
 * the committed file differs, so a change to a flow shows up in review as a diagram diff.
 * @module visualizations/flows-markdown
 */
import type { FlowGraph } from './describe-machine.js'
import { toMermaid } from './mermaid.js'

/** The command that rewrites docs/flows.md; the stale-file test prints it. */
export const regenerateFlowsDocCommand = 'npx authchart diagram --format markdown --out docs'

function extensionSummary(graph: FlowGraph): string {
  if (graph.extensionPoints.length === 0) return 'No extension points.'
  return `Extension points: ${graph.extensionPoints.map((name) => `\`${name}\``).join(', ')} (see [extending.md](./extending.md)).`
}

/** docs/flows.md for the given machines, in the order given. */
export function toFlowsMarkdown(graphs: readonly FlowGraph[]): string {
  const parts = [
    '# Flows',
    '',
    `<!-- Generated from machines/ by \`${regenerateFlowsDocCommand}\`. Do not edit by hand: a test compares this file with the machines. -->`,
    '',
    'Every sign-in flow, the session lifecycle and what follows sign-in (provider token refresh, back-channel logout)',
    'is a statechart in `machines/`. The charts below are drawn from those definitions. Each box is titled with the',
    "state's name, the one the audit hook (`onTransition`) and the `flow step` debug line print",
    '([logging.md](./logging.md)); below it, what the state is for. Arrows read',
    '`EVENT [guard] / actions`; the first arrow whose guard passes is taken, and an arrow with no guard after guarded',
    'ones is the "otherwise" branch (plain `assign`s are left off the arrows). A state\'s `entry /` line is the command',
    "the flow runtime runs on entering it (a callback, an adapter call, a provider request); the command's result comes",
    'back as the next event. States tagged `awaitingBrowser` wait for the next request. Outcomes are final states; a',
    'failed flow keeps its error type in `context.error`.',
    '',
    'What happens once a sign-in knows its user is defined once, in `machines/sign-in-completion.ts`, and composed into',
    'the credentials, e-mail and OAuth machines as the block `completingSignIn`: the `signIn` callback (a URL it returns',
    "still passes the `redirect` callback), the method's own step that saves the user (OAuth's account linking, e-mail's",
    'verified user), the session (`jwt` with `trigger: "signUp"` for a user created here) and the `signIn` event. Each',
    'chart shows the arrow that enters the block; a state inside it is named by its path (`completingSignIn.issuingSession`).',
    '',
    'For an interactive view, run `npx authchart diagram --format html` and open `diagrams/flow-inspector.html`.',
    '',
  ]
  for (const graph of graphs) {
    parts.push(`## ${graph.machineId}`, '')
    parts.push(
      `Version ${graph.version ?? 'n/a'}: ${graph.states.length} states, ${graph.transitions.length} transitions. ${extensionSummary(graph)}`,
      '',
    )
    parts.push('```mermaid', toMermaid(graph).trimEnd(), '```', '')
  }
  return parts.join('\n')
}
