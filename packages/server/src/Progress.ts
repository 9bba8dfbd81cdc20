import { Effect } from "effect"

/** Reports the progress of one long step of the command line. */
export interface Progress {
  /** Counts `done` more units of work, with an optional note of what was just done. */
  readonly advance: (done?: number, note?: string) => Effect.Effect<void>
  /** Ends the step with a summary line. */
  readonly finish: (summary: string) => Effect.Effect<void>
}

/** Where progress goes: stderr (stdout carries a command's results), and whether it is a terminal. */
export interface Output {
  readonly write: (text: string) => void
  readonly isTerminal: boolean
}

/** Standard error, as the process has it. */
export const stderr: Output = {
  write: (text) => process.stderr.write(text),
  get isTerminal() {
    return process.stderr.isTTY === true
  }
}

const width = 24

const bar = (done: number, total: number): string => {
  const filled = total === 0 ? width : Math.min(width, Math.floor((done / total) * width))
  return `[${"#".repeat(filled)}${" ".repeat(width - filled)}]`
}

/**
 * Progress of a step of `total` units called `label`. On a terminal, one line that redraws itself in place (a bar,
 * `done/total` and the latest note); otherwise (CI logs, pipes) plain lines with no control characters: one when
 * the step starts, one about every tenth of the way (or one each step, with `lineEachStep`), and the summary, so a
 * log stays short and readable.
 */
export const make = (
  label: string,
  total: number,
  output: Output = stderr,
  options: { readonly lineEachStep?: boolean } = {}
): Effect.Effect<Progress> =>
  Effect.sync(() => {
    let done = 0
    let reportedTenth = 0
    const started = performance.now()
    if (!output.isTerminal) output.write(`${label}: 0/${total}\n`)
    return {
      advance: (count = 1, note = "") =>
        Effect.sync(() => {
          done += count
          if (output.isTerminal) {
            output.write(`\r\u001b[2K${label} ${bar(done, total)} ${done}/${total}${note === "" ? "" : ` ${note}`}`)
            return
          }
          const tenth = total === 0 ? 10 : Math.floor((done / total) * 10)
          if (options.lineEachStep === true || (tenth > reportedTenth && done < total)) {
            reportedTenth = tenth
            output.write(`${label}: ${done}/${total}${note === "" ? "" : ` (${note})`}\n`)
          }
        }),
      finish: (summary) =>
        Effect.sync(() => {
          const seconds = ((performance.now() - started) / 1000).toFixed(1)
          output.write(`${output.isTerminal ? "\r\u001b[2K" : ""}${label}: ${summary} in ${seconds} s\n`)
        })
    }
  })
