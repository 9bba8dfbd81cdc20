import { Layer, Logger } from "effect"
import type { ServerConfig } from "./ServerConfig.js"

/** The logger the configuration asks for, at its minimum level. Log lines never carry secrets or bodies. */
export const layer = (settings: ServerConfig): Layer.Layer<never> =>
  Layer.mergeAll(
    settings.logFormat === "json"
      ? Logger.replace(Logger.defaultLogger, Logger.jsonLogger)
      : settings.logFormat === "logfmt"
        ? Logger.replace(Logger.defaultLogger, Logger.logfmtLogger)
        : Logger.pretty,
    Logger.minimumLogLevel(settings.logLevel)
  )
