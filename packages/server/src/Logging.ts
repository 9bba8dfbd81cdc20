import { FiberRef, HashSet, Layer, Logger } from "effect"
import type { ServerConfig } from "./ServerConfig.js"

/** Where log lines go: the server logs to stdout, CLI commands to stderr so their stdout carries only results. */
export type Destination = "stdout" | "stderr"

const toStream = (destination: Destination) =>
  destination === "stderr" ? Logger.withConsoleError : Logger.withConsoleLog

/**
 * The logger the configuration asks for, at its minimum level, in place of every other logger (Effect's default,
 * the pretty logger `runMain` adds, a logger set by an enclosing layer): `pretty` (coloured only when `colors` says
 * so), `logfmt` or `json` (one object per line). Log lines never carry secrets or bodies.
 */
export const layer = (
  settings: Pick<ServerConfig, "logLevel" | "logFormat">,
  output: { readonly destination: Destination; readonly colors: boolean }
): Layer.Layer<never> =>
  Layer.mergeAll(
    Layer.locallyScoped(
      FiberRef.currentLoggers,
      HashSet.make<Array<Logger.Logger<unknown, unknown>>>(
        Logger.tracerLogger,
        settings.logFormat === "json"
          ? toStream(output.destination)(Logger.jsonLogger)
          : settings.logFormat === "logfmt"
            ? toStream(output.destination)(Logger.logfmtLogger)
            : Logger.prettyLogger({ colors: output.colors, stderr: output.destination === "stderr" })
      )
    ),
    Logger.minimumLogLevel(settings.logLevel)
  )
