import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"

const bin = fileURLToPath(new URL("../src/bin.ts", import.meta.url))

/** What a finished `payrail` process printed, and its exit code. */
export interface CliResult {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/**
 * Runs `payrail <args>` as a user would from a shell whose output is piped (not a terminal), in an environment
 * of `env` over this process's, without `DATABASE_URL` unless `env` sets it. Never throws on a non-zero exit; a
 * command still running after two minutes (a server that should have been refused) gets SIGTERM.
 */
export const runCli = (env: Record<string, string>, ...args: Array<string>): Promise<CliResult> => {
  const { DATABASE_URL: _unused, NO_COLOR: _noColor, ...inherited } = process.env
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", bin, ...args],
      { env: { ...inherited, LOG_LEVEL: "warning", ...env }, timeout: 120_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1
        resolve({ code, stdout, stderr })
      }
    )
  })
}

/** Lines of `text` that are not empty. */
export const linesOf = (text: string): Array<string> => text.split("\n").filter((line) => line.trim() !== "")

/** Whether `text` carries ANSI escape sequences (colours, bold). */
export const hasAnsi = (text: string): boolean => text.includes("\u001b[")
