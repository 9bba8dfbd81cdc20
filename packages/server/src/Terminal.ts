import { Config, Option } from "effect"
import { stripVTControlCharacters } from "node:util"

/** Whether each output stream may carry ANSI colours and styles. */
export interface Colors {
  readonly stdout: boolean
  readonly stderr: boolean
}

/**
 * Colours only on a terminal, and never when `NO_COLOR` is set to a non-empty value (https://no-color.org): piped
 * or redirected output is plain text.
 */
export const colors: Config.Config<Colors> = Config.map(Config.option(Config.string("NO_COLOR")), (noColor) => {
  const allowed = Option.isNone(noColor) || noColor.value === ""
  return { stdout: allowed && process.stdout.isTTY === true, stderr: allowed && process.stderr.isTTY === true }
})

/** `text` without ANSI escape sequences (colours, bold, cursor moves). */
export const plain = (text: string): string => stripVTControlCharacters(text)
