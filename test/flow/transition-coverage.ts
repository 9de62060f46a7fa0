/**
 * Which of a machine's declared transitions a set of paths takes. The paths are re-run on an actor with xstate's
 * inspection API, whose microstep events name the transition definitions taken, eventless (`always`) ones
 * included, which `getTransitionData` would miss. Tests only: the runtime never uses actors.
 */
import { createActor, type AnyStateMachine, type AnyTransitionDefinition } from 'xstate'
import { stateNodesOf, transitionsOf } from '../../visualizations/describe-machine.js'
import type { FlowPath } from './flow-paths.js'

/** Every transition the definition declares, in definition order. */
export function declaredTransitions(machine: AnyStateMachine): AnyTransitionDefinition[] {
  return stateNodesOf(machine.root).flatMap(transitionsOf)
}

/** `source --EVENT [guard]--> target`, for reports. */
export function transitionName(t: AnyTransitionDefinition): string {
  const guard =
    t.guard === undefined
      ? ''
      : ` [${typeof t.guard === 'string' ? t.guard : typeof t.guard === 'function' ? t.guard.name : String((t.guard as { type: unknown }).type)}]`
  const targets = (t.target ?? []).map((n) => n.path.join('.')).join(',') || '(stays)'
  return `${t.source.path.join('.')} --${String(t.eventType) || 'always'}${guard}--> ${targets}`
}

/** The declared transitions that at least one of `paths` takes. */
export function transitionsTaken(machine: AnyStateMachine, paths: readonly FlowPath[]): Set<AnyTransitionDefinition> {
  const declared = new Set(declaredTransitions(machine))
  const taken = new Set<AnyTransitionDefinition>()
  for (const path of paths) {
    const actor = createActor(machine, {
      inspect: (event) => {
        if (event.type !== '@xstate.microstep') return
        for (const t of event._transitions) if (declared.has(t)) taken.add(t)
      },
    })
    actor.start()
    for (const s of path.steps.slice(1)) actor.send(s.event)
    actor.stop()
  }
  return taken
}
