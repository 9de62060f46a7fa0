/**
 * Holds a machine's command contract equal to the machine, from both sides: every result event a handler may answer
 * is accepted in each state that runs its command, and every event a state accepts is either a request event (sent
 * by the HTTP layer) or listed for the command that state runs. Read from the compiled table, the same one the
 * runtime executes.
 */
import type { AnyStateMachine } from 'xstate'
import { compileMachine } from '../../src/flow/compiled-machine.js'

type Contract = Readonly<Record<string, readonly string[]>>

interface StateShape {
  key: string
  entry: ReadonlyArray<{ kind: string; type?: string }>
  on: ReadonlyMap<string, unknown>
}

/** Each mismatch between the machine and its contract, as a sentence; an empty list when they agree. */
export function contractProblems(
  machine: AnyStateMachine,
  contract: Contract,
  requestEvents: readonly string[],
): string[] {
  const problems: string[] = []
  const emitted = new Set<string>()
  const states = compileMachine(machine).states as ReadonlyMap<string, StateShape>
  for (const state of states.values()) {
    const commands = state.entry.filter((step) => step.kind === 'command').map((step) => step.type as string)
    const accepted = [...state.on.keys()]
    const command = commands[0]
    if (commands.length > 1) problems.push(`${machine.id}.${state.key} runs ${commands.length} commands on entry`)
    if (command === undefined) {
      for (const event of accepted) {
        if (!requestEvents.includes(event))
          problems.push(`${machine.id}.${state.key} accepts ${event}, but no command runs there to answer it`)
      }
      continue
    }
    emitted.add(command)
    const answers = contract[command]
    if (!answers) {
      problems.push(`${machine.id}: command ${command} has no contract entry`)
      continue
    }
    for (const event of accepted) {
      if (!answers.includes(event) && !requestEvents.includes(event))
        problems.push(`${machine.id}.${state.key} accepts ${event}, which no ${command} handler may answer`)
    }
    for (const event of answers) {
      if (!accepted.includes(event))
        problems.push(
          `${machine.id}.${state.key}: a ${command} handler may answer ${event}, which the state does not accept`,
        )
    }
  }
  for (const command of Object.keys(contract)) {
    if (!emitted.has(command)) problems.push(`${machine.id}: the contract lists ${command}, which no state runs`)
  }
  return problems
}
