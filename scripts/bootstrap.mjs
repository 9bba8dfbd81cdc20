// Runs a root task on a fresh machine: makes sure pnpm (through corepack) and the locked dependencies are present,
// then hands over to the task. `npm start` / `npm test` and `pnpm start` / `pnpm test` all come through here.
import { spawn, spawnSync } from "node:child_process"
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import path from "node:path"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const [task, ...rest] = process.argv.slice(2)
const tasks = {
  start: [process.execPath, ["--import", "tsx", "packages/server/src/bin.ts", "serve"]],
  test: [process.execPath, [path.join("node_modules", "vitest", "vitest.mjs"), "run"]]
}
if (!(task in tasks)) {
  console.error(`unknown task ${task}; expected one of ${Object.keys(tasks).join(", ")}`)
  process.exit(2)
}

// corepack verifies pnpm's signature against keys bundled with Node; Node 20's keys predate pnpm 10's,
// so that check is switched off for this download (pnpm itself still comes from the npm registry).
const env = { ...process.env, COREPACK_INTEGRITY_KEYS: "0", COREPACK_ENABLE_DOWNLOAD_PROMPT: "0" }
const installed = existsSync(path.join(root, "node_modules", ".modules.yaml"))
const install = spawnSync(
  "corepack",
  ["pnpm", "install", "--frozen-lockfile", ...(installed ? ["--prefer-offline", "--reporter=silent"] : [])],
  { cwd: root, env, stdio: "inherit" }
)
if (install.status !== 0) process.exit(install.status ?? 1)

const [command, args] = tasks[task]
const child = spawn(command, [...args, ...rest], { cwd: root, env: process.env, stdio: "inherit" })
// The child shares the terminal's process group and gets Ctrl-C itself; this process only waits for it to finish
// its graceful shutdown, and passes on a SIGTERM sent to this process alone.
process.on("SIGINT", () => {})
process.on("SIGTERM", () => child.kill("SIGTERM"))
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
