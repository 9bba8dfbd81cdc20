import { type ChildProcess, execFile, spawn } from "node:child_process"
import { once } from "node:events"
import { readFileSync } from "node:fs"
import { join } from "node:path"

/** One fenced ```sh block of a guide: its commands as written, and the guide line it starts on. */
export interface ShellBlock {
  readonly line: number
  readonly text: string
}

/** Every ```sh block of the guide at `path`, in order. */
export const shellBlocks = (root: string, path: string): Array<ShellBlock> => {
  const lines = readFileSync(join(root, path), "utf8").split("\n")
  const blocks: Array<ShellBlock> = []
  for (let at = 0; at < lines.length; at++) {
    if (lines[at]?.trim() !== "```sh") continue
    const end = lines.findIndex((text, after) => after > at && text.trim() === "```")
    if (end === -1) throw new Error(`${path}:${at + 1}: the code block is never closed`)
    blocks.push({ line: at + 2, text: lines.slice(at + 1, end).join("\n") })
    at = end
  }
  return blocks
}

/** `text` with each key of `values` (a placeholder such as `<customer id>`, or a literal) replaced by its value. */
export const substitute = (text: string, values: ReadonlyMap<string, string>): string => {
  let result = text
  for (const [key, value] of values) result = result.split(key).join(value)
  const left = /<[a-zA-Z][^<>\n]*>/.exec(result)
  if (left !== null) throw new Error(`no value to put in place of ${left[0]} in:\n${result}`)
  return result
}

/** What a finished command printed. */
export interface Ran {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/** Runs `script` with bash (`-eu -o pipefail`) in `cwd`, as a reader's terminal would; never throws on failure. */
export const runShell = (script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<Ran> =>
  new Promise((resolve) => {
    execFile(
      "bash",
      ["-eu", "-o", "pipefail", "-c", script],
      { cwd, env, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr })
    )
  })

/** A command that keeps running (a server), started in its own process group. */
export interface Background {
  readonly output: () => string
  /** Resolves once the output matches `pattern`; rejects if the process ends first or `timeoutMs` passes. */
  readonly waitFor: (pattern: RegExp, timeoutMs?: number) => Promise<RegExpExecArray>
  /** SIGTERM to its process group (it and its children), then waits for it to end. */
  readonly stop: () => Promise<void>
}

/** Starts `script` with bash in `cwd` in a process group of its own, collecting stdout and stderr. */
export const startShell = (script: string, cwd: string, env: NodeJS.ProcessEnv): Background => {
  const child: ChildProcess = spawn("bash", ["-eu", "-c", script], {
    cwd,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()))
  const exited = once(child, "exit")
  const running = () => child.exitCode === null && child.signalCode === null
  return {
    output: () => output,
    waitFor: async (pattern, timeoutMs = 280_000) => {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const match = pattern.exec(output)
        if (match !== null) return match
        if (!running() || Date.now() > deadline) throw new Error(`no ${pattern} in the output of ${script}:\n${output}`)
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    },
    stop: async () => {
      if (!running() || child.pid === undefined) return
      const group = -child.pid
      process.kill(group, "SIGTERM")
      await exited
      // Its children (npm's script, the server) finish their own graceful shutdown: wait until none is left.
      const deadline = Date.now() + 20_000
      for (;;) {
        try {
          process.kill(group, 0)
        } catch {
          return
        }
        if (Date.now() > deadline) return void process.kill(group, "SIGKILL")
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    }
  }
}
