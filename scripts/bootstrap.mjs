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
const tsc = path.join("node_modules", "typescript", "bin", "tsc")
// The server and the CLI run as production runs them: compiled JavaScript, no TypeScript loader in the process
// (tsx costs about 100 MB of resident memory). The `payrail-compiled` condition resolves each @payrail package to
// its `dist/src/*.js` output; without it (tsx, vitest, the editor) packages resolve to their `.ts` sources.
const compiledBin = path.join("packages", "server", "dist", "src", "bin.js")
const compiled = (...args) => node("--conditions=payrail-compiled", compiledBin, ...args)
// Tasks that run compiled output first bring it up to date with an incremental `tsc -b` of the server and the packages
// it references: a full build on a fresh clone, well under a second when nothing changed.
const needsBuild = new Set(["start", "payrail"])
// The server's V8 heap is capped at 192 MB: without a cap V8 let the heap grow to 200-300 MB under load and the process
// to 340-370 MB. The idle server holds about 75 MB, so 128 MB left the collector too little room once the code grew
// (POST /customers cost 9.1 ms of CPU at 128 MB against 6.2 ms at 192 MB); at 192 MB the process peaks at 219 MB on
// PostgreSQL and 365 MB on PGlite under the bench's loads (docs/operating/performance.md). A limit in NODE_OPTIONS wins.
const heapCap = /--max-old-space-size/.test(process.env.NODE_OPTIONS ?? "") ? [] : ["--max-old-space-size=192"]
const tasks = {
  start: node(...heapCap, "--conditions=payrail-compiled", compiledBin, "serve"),
  test: node(path.join("node_modules", "vitest", "vitest.mjs"), "run"),
  typecheck: node(tsc, "-b", "tsconfig.json"),
  build: node(tsc, "-b", "tsconfig.json"),
  lint: node(path.join("scripts", "lint.mjs")),
  bench: node(path.join("scripts", "bench.mjs")),
  fuzz: node("--import", "tsx", path.join("packages", "http", "test", "fuzz", "cli.ts")),
  payrail: compiled(),
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

if (needsBuild.has(task)) {
  if (!existsSync(path.join(root, compiledBin))) {
    console.error("compiling the packages with tsc -b (first run only, about a minute)")
  }
  // tsc reports type errors on stdout; they go to stderr here so that the CLI's stdout stays its results.
  const build = spawnSync(process.execPath, [tsc, "-b", path.join("packages", "server")], {
    cwd: root,
    stdio: ["ignore", 2, 2]
  })
  if (build.status !== 0) {
    console.error(`could not build the server (tsc -b packages/server exited with ${build.status ?? build.signal})`)
    process.exit(build.status ?? 1)
  }
}

const [command, args] = tasks[task]
const child = spawn(command, [...args, ...rest], { cwd: root, env: process.env, stdio: "inherit" })
// The child shares the terminal's process group and gets Ctrl-C itself; this process only waits for it to finish
// its graceful shutdown, and passes on a SIGTERM sent to this process alone.
process.on("SIGINT", () => {})
process.on("SIGTERM", () => child.kill("SIGTERM"))
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
