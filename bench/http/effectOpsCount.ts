import { mkdtemp, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { defer } from "./lifecycle.js"

/**
 * Counting the operations of Effect's fiber runtime in a reference server (`effectOps.mjs`, a preload): start the
 * server with `nodeFlags` and `env`, call `mark(pid)` at the start and at the end of each measured window, then
 * `read(n)` answers the lines of the n-th window (from 0): the operations per unit of `divisor` in all, then by the
 * function they ran, most frequent first.
 */
export const effectOpsCount = async (divisor: number) => {
  const directory = await mkdtemp(path.join(tmpdir(), "payrail-bench-effect-ops-"))
  defer("the operation counts", () => rm(directory, { recursive: true, force: true }))
  const read = async (window: number): Promise<ReadonlyArray<string>> => {
    const file = path.join(directory, `window-${window}.txt`)
    // The server writes the file when signalled: wait for it (10 s at most).
    for (let waited = 0; ; waited += 100) {
      try {
        return (await readFile(file, "utf8")).trimEnd().split("\n")
      } catch (error) {
        if (waited >= 10_000) throw error
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    }
  }
  return {
    nodeFlags: ["--import", fileURLToPath(new URL("./effectOps.mjs", import.meta.url))],
    env: { EFFECT_OPS_PREFIX: path.join(directory, "window"), EFFECT_OPS_DIVISOR: String(divisor) },
    mark: (pid: number) => {
      process.kill(pid, "SIGUSR2")
    },
    read
  }
}
