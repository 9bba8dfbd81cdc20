import { HelpDoc, Usage, ValidationError } from "@effect/cli"
import type { Teardown } from "@effect/platform/Runtime"
import { Cause, Console, Effect, Exit, LogLevel, Option } from "effect"
import * as Cli from "./Cli.js"
import * as CliConsole from "./CliConsole.js"
import * as CliFailure from "./CliFailure.js"
import * as Logging from "./Logging.js"
import { config } from "./ServerConfig.js"
import * as Terminal from "./Terminal.js"

// Logging works before the configuration is known to be valid: for `--help`, and to report that it is not.
const loggingSettings = config.pipe(
  Effect.map(({ logFormat, logLevel }) => ({ logFormat, logLevel })),
  Effect.orElseSucceed(() => ({ logLevel: LogLevel.Info, logFormat: "pretty" as const }))
)
const noColors: Terminal.Colors = { stdout: false, stderr: false }

/** The command `args` name (`payrail platform create`) and its usage line, or the top-level hint. */
const commandOf = (args: ReadonlyArray<string>): { readonly name: string; readonly usage: string } => {
  const positional = args.filter((arg) => !arg.startsWith("-"))
  const known = Cli.usages.find(({ words }) => words.every((word, index) => positional[index] === word))
  if (known === undefined) return { name: "payrail", usage: "payrail <command>; see payrail --help" }
  const rendered = Terminal.plain(HelpDoc.toAnsiText(Usage.getHelp(known.usage))).trim()
  const parents = known.words.slice(0, -1)
  return { name: ["payrail", ...known.words].join(" "), usage: ["payrail", ...parents, rendered].join(" ") }
}

/** The one line that reports a failed run to a person. */
const reportLine = (cause: Cause.Cause<unknown>, args: ReadonlyArray<string>, heldErrors: ReadonlyArray<string>) => {
  const { name, usage } = commandOf(args)
  const failure = Cause.failureOption(cause)
  if (Option.isSome(failure) && ValidationError.isValidationError(failure.value)) {
    const message = heldErrors
      .filter((line) => line !== "")
      .join(" ")
      .replace(/\.?$/, ".")
    return `${name}: ${message} Usage: ${usage}`
  }
  return `${name}: ${CliFailure.describeCause(cause, name)}`
}

/**
 * The `payrail` process: runs the command line `argv` (`process.argv`) and reports a failure in one line on stderr
 * (which option is missing with the command's usage, or what failed and what to do), never as an internal structure,
 * a stack or a source path; the full cause is logged at DEBUG level. Output carries colours only on a terminal
 * without `NO_COLOR`. Succeeds with the process's exit code: 0, or 1 when the command failed. Run it with
 * `runMain({ disableErrorReporting: true, disablePrettyLogger: true, teardown })`.
 */
export const main = (argv: ReadonlyArray<string>): Effect.Effect<number, never, Cli.Environment> =>
  Effect.gen(function* () {
    const colors = yield* Effect.orElseSucceed(Terminal.colors, () => noColors)
    const logging = yield* loggingSettings
    const cli = yield* CliConsole.make(colors)
    // The server logs to stdout beside its banner; other commands to stderr, so their stdout carries only results.
    const destination = commandOf(argv.slice(2)).name === "payrail serve" ? "stdout" : "stderr"
    const logger = Logging.layer(logging, { destination, colors: colors[destination] })
    const exit = yield* Effect.exit(Cli.run(argv).pipe(Console.withConsole(cli.console), Effect.provide(logger)))
    if (Exit.isSuccess(exit)) {
      for (const line of cli.heldErrors()) yield* Console.error(line)
      return 0
    }
    const line = reportLine(exit.cause, argv.slice(2), cli.heldErrors())
    yield* Effect.logDebug("the command failed", exit.cause).pipe(Effect.provide(logger))
    yield* Console.error(colors.stderr ? line : Terminal.plain(line))
    return 1
  })

/** Exits with the code `main` succeeded with; 0 after an interruption (SIGINT, SIGTERM: a graceful stop). */
export const teardown: Teardown = (exit, onExit) => {
  if (Exit.isSuccess(exit)) return onExit(typeof exit.value === "number" ? exit.value : 0)
  onExit(Cause.isInterruptedOnly(exit.cause) ? 0 : 1)
}
