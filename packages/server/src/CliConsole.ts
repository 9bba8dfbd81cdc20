import { Console, Effect } from "effect"
import * as Terminal from "./Terminal.js"

/** The console the CLI prints through, and the error messages it held back. */
export interface CliConsole {
  readonly console: Console.Console
  /** The messages written with `Console.error` so far, as plain text without trailing blank lines. */
  readonly heldErrors: () => ReadonlyArray<string>
}

const text = (args: ReadonlyArray<unknown>, colors: boolean): Array<unknown> =>
  colors ? [...args] : args.map((arg) => (typeof arg === "string" ? Terminal.plain(arg) : arg))

/**
 * The current console, changed for the CLI: what goes to stdout loses its ANSI styles unless `colors.stdout` says
 * the stream takes them, and `Console.error` output is held back instead of printed. @effect/cli writes a
 * validation error there before failing with it, so the CLI can report the error and its usage hint together in one
 * line; the caller prints `heldErrors` when the run fails otherwise.
 */
export const make = (colors: Terminal.Colors): Effect.Effect<CliConsole> =>
  Console.consoleWith((base) =>
    Effect.sync(() => {
      const held: Array<string> = []
      const console: Console.Console = {
        ...base,
        log: (...args) => base.log(...text(args, colors.stdout)),
        info: (...args) => base.info(...text(args, colors.stdout)),
        error: (...args) =>
          Effect.sync(() => {
            held.push(Terminal.plain(args.map(String).join(" ")).trimEnd())
          })
      }
      return { console, heldErrors: () => [...held] }
    })
  )
