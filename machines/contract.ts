/**
 * The closed contract between a machine and the handlers of its commands. A machine declares its commands once
 * (name and params, via `command<Params>()` in `setup({ actions })`) and, per command, the result events a handler may
 * answer with. `HandlersFor` turns that into the handler type: each handler takes exactly its params and may return
 * only the events listed for its command. test/flow/contract.test.ts holds the lists equal to the machine: every
 * listed event is accepted where the command runs, and every result event the machine accepts is listed.
 */

/** Declares a command action in `setup({ actions })`: a no-op for xstate, a typed params record for the runtime. */
export function command<Params extends object>(): (_: unknown, params: Params) => void {
  return () => {}
}

/** The command union of a machine, from its `command<Params>()` declarations. */
export type CommandsOf<Declared> = {
  [K in keyof Declared & string]: Declared[K] extends (_: unknown, params: infer P) => void
    ? { type: K; params: P }
    : never
}[keyof Declared & string]

/** Per command type, the result event types its handler may answer with. */
export type CommandContract<Command extends { type: string }, Event extends { type: string }> = {
  readonly [K in Command['type']]: readonly Event['type'][]
}

type Awaitable<T> = T | Promise<T>

/** The handlers a contract asks for: params in, one of the listed events out. */
export type HandlersFor<
  Command extends { type: string; params: object },
  Event extends { type: string },
  Contract extends CommandContract<Command, Event>,
> = {
  [K in Command['type']]: (
    params: Extract<Command, { type: K }>['params'],
  ) => Awaitable<Extract<Event, { type: Contract[K][number] }>>
}
