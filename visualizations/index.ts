/**
 * Diagrams drawn from the machine definitions: a neutral graph model, Mermaid and DOT text, the HTML inspector, and
 * docs/flows.md. Depends on `machines/` and xstate only.
 * @module visualizations
 */
export { describeEntry, describeMachine, stateNodesOf, transitionsOf } from './describe-machine.js'
export type { ActionLabel, FlowGraph, FlowState, FlowTransition, GuardLabel, GuardOrigin } from './describe-machine.js'
export { mermaidIds, mermaidText, toMermaid } from './mermaid.js'
export { toDot } from './dot.js'
export { toInspectorHtml } from './html-inspector.js'
export type { InspectorOptions } from './html-inspector.js'
export { regenerateFlowsDocCommand, toFlowsMarkdown } from './flows-markdown.js'
