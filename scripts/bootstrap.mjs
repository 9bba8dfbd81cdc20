// Runs a root task on a fresh machine: makes sure pnpm (through corepack) and the locked dependencies are present,
// then hands over to the task with the arguments that follow its name. Every root script comes through here, so each
// command the README documents works as `npm run <task>` (or `npm start` / `npm test`) with nothing but Node
// installed, and as `corepack pnpm <task>` or `pnpm <task>` where pnpm is available.
import { spawn, spawnSync } from "node:child_process"
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import path from "node:path"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const [task, ...rest] = process.argv.slice(2)
const node = (...args) => [process.execPath, args]
const tasks = {
  start: node("--import", "tsx", "packages/server/src/bin.ts", "serve"),
  test: node(path.join("node_modules", "vitest", "vitest.mjs"), "run"),
  typecheck: node(path.join("node_modules", "typescript", "bin", "tsc"), "-b", "tsconfig.json"),
  build: node(path.join("node_modules", "typescript", "bin", "tsc"), "-b", "tsconfig.json"),
  lint: node(path.join("scripts", "lint.mjs")),
  bench: node(path.join("scripts", "bench.mjs")),
  fuzz: node("--import", "tsx", path.join("packages", "http", "test", "fuzz", "cli.ts")),
  payrail: node("--import", "tsx", "packages/server/src/bin.ts"),
  changeset: node(path.join("node_modules", "@changesets", "cli", "bin.js"))
}
if (!(task in tasks)) {
  console.error(`unknown task ${task}; expected one of ${Object.keys(tasks).join(", ")}`)
  process.exit(2)
}

// corepack verifies pnpm's signature against keys bundled with Node; Node 20's keys predate pnpm 10's,
// so that check is switched off for this download (pnpm itself still comes from the npm registry).
const env = { ...process.env, COREPACK_INTEGRITY_KEYS: "0", COREPACK_ENABLE_DOWNLOAD_PROMPT: "0" }
const installed = existsSync(path.join(root, "node_modules", ".modules.yaml"))
// The installer reports on stderr, so a task's stdout (a platform id, a token) stays its own.
const install = spawnSync(
  "corepack",
  ["pnpm", "install", "--frozen-lockfile", ...(installed ? ["--prefer-offline", "--reporter=silent"] : [])],
  { cwd: root, env, stdio: ["inherit", 2, 2] }
)
if (install.error !== undefined) {
  console.error(`could not run corepack (${install.error.message}); it ships with Node 20, see README`)
  process.exit(1)
}
if (install.status !== 0) process.exit(install.status ?? 1)

const [command, args] = tasks[task]
const child = spawn(command, [...args, ...rest], { cwd: root, env: process.env, stdio: "inherit" })
// The child shares the terminal's process group and gets Ctrl-C itself; this process only waits for it to finish
// its graceful shutdown, and passes on a SIGTERM sent to this process alone.
process.on("SIGINT", () => {})
process.on("SIGTERM", () => child.kill("SIGTERM"))
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
