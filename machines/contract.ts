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

/**
 * The handlers a contract asks for: params in, one of the listed events out. `Scratch` is what the handlers of one
 * run hand each other outside the machine (src/flow/runtime.ts creates it, empty, for every run and passes the same
 * object to each handler): every key starts absent, so a handler sees it `Partial`. A machine whose handlers keep
 * nothing leaves it out.
 */
export type HandlersFor<
  Command extends { type: string; params: object },
  Event extends { type: string },
  Contract extends CommandContract<Command, Event>,
  Scratch extends object = Record<never, never>,
> = {
  [K in Command['type']]: (
    params: Extract<Command, { type: K }>['params'],
    scratch: Partial<Scratch>,
  ) => Awaitable<Extract<Event, { type: Contract[K][number] }>>
}

/** The event types a handler record answers, per command, as its handlers' own (inferred) return types say. */
export type AnswersOf<Handlers> = {
  [K in keyof Handlers]: Handlers[K] extends (...args: never[]) => infer Answer
    ? Awaited<Answer> extends { type: infer Type }
      ? Type
      : never
    : never
}

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false

/**
 * Per command of `Contract`, whether the handlers answer exactly its listed events: `true`, or the events listed
 * that no handler's type can produce (`missing`) and the ones it produces without the list naming them (`extra`).
 * A handler record built with `satisfies HandlersFor<…>` keeps its handlers' own return types, so this is the
 * type-level form of "every event a handler may answer is produced" (test/flow/contract-types.test.ts checks each
 * machine's).
 */
export type AnswersExactly<Handlers, Contract extends Readonly<Record<string, readonly string[]>>> = {
  [K in keyof Contract]: K extends keyof Handlers
    ? Same<AnswersOf<Handlers>[K], Contract[K][number]> extends true
      ? true
      : {
          missing: Exclude<Contract[K][number], AnswersOf<Handlers>[K]>
          extra: Exclude<AnswersOf<Handlers>[K], Contract[K][number]>
        }
    : { missing: Contract[K][number]; extra: never }
}
