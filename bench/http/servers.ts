import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { mkdtemp, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { defer, freePort, sleep } from "./lifecycle.js"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")

/** A server under test, in a process of its own. */
export interface ServerProcess {
  readonly label: string
  readonly pid: number
  readonly baseUrl: string
  /** Stops the process gracefully (SIGINT, then SIGKILL after 20 s) and waits for it to exit. */
  readonly stop: () => Promise<void>
  /** Whether the process is still running. */
  readonly alive: () => boolean
}

/** The reference server with the credentials of its bootstrapped sandbox platform. */
export interface ReferenceServer extends ServerProcess {
  readonly storage: "postgres" | "pglite"
  readonly platformId: string
  /** `Basic …` for the sandbox platform's token, which holds every permission. */
  readonly authorization: string
}

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null

const stopper = (child: ChildProcess) => async () => {
  if (exited(child)) return
  const gone = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  child.kill("SIGINT")
  const timer = setTimeout(() => child.kill("SIGKILL"), 20_000)
  await gone
  clearTimeout(timer)
}

// Starts `node <args>` in the repository root and waits until GET `readyPath` answers 200. The process's output is
// kept (its last chunks) for the error message should it exit or not become ready.
const startNode = async (
  label: string,
  args: ReadonlyArray<string>,
  env: NodeJS.ProcessEnv,
  port: number,
  readyPath: string,
  readyWithinMs: number
): Promise<ServerProcess> => {
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] })
  const output: Array<string> = []
  const keep = (chunk: string) => {
    output.push(chunk)
    if (output.length > 100) output.shift()
  }
  child.stdout?.setEncoding("utf8").on("data", keep)
  child.stderr?.setEncoding("utf8").on("data", keep)
  let stopping = false
  child.once("exit", (code, signal) => {
    if (!stopping)
      console.error(`\n${label} exited unexpectedly (${code ?? signal}); its last output:\n${output.join("")}`)
  })
  const stopNow = stopper(child)
  const stop = () => {
    stopping = true
    return stopNow()
  }
  defer(label, stop)
  const baseUrl = `http://127.0.0.1:${port}`
  const deadline = performance.now() + readyWithinMs
  for (;;) {
    if (exited(child)) throw new Error(`${label} exited (${child.exitCode ?? child.signalCode}):\n${output.join("")}`)
    const ready = await fetch(`${baseUrl}${readyPath}`).then(
      (response) => response.ok,
      () => false
    )
    if (ready) break
    if (performance.now() > deadline)
      throw new Error(`${label} was not ready within ${readyWithinMs / 1000} s:\n${output.join("")}`)
    await sleep(100)
  }
  if (child.pid === undefined) throw new Error(`${label} has no process id`)
  return { label, pid: child.pid, baseUrl, stop, alive: () => !exited(child) }
}

/** The raw node:http baseline (bench/http/rawServer.ts). */
export const startRaw = async (): Promise<ServerProcess> => {
  const port = await freePort()
  return startNode(
    "raw node:http",
    ["--import", "tsx", path.join(root, "bench/http/rawServer.ts"), String(port)],
    process.env,
    port,
    "/",
    30_000
  )
}

/** A temporary data directory for a server on `storage`, deleted when the bench ends. */
export const temporaryDataDir = async (storage: "postgres" | "pglite"): Promise<string> => {
  const dataDir = await mkdtemp(path.join(tmpdir(), `payrail-bench-http-${storage}-`))
  defer(`the ${storage} server's data directory`, () => rm(dataDir, { recursive: true, force: true }))
  return dataDir
}

const SandboxCredentials = (value: unknown): { platformId: string; clientId: string; clientSecret: string } => {
  const record = typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {}
  const { clientId, clientSecret, platformId } = record
  if (typeof platformId !== "string" || typeof clientId !== "string" || typeof clientSecret !== "string") {
    throw new Error("sandbox-credentials.json does not hold platformId, clientId and clientSecret")
  }
  return { platformId, clientId, clientSecret }
}

/**
 * How the reference server runs: `compiled` as `npm start` runs it in production (the packages built with an
 * incremental `tsc -b`, `node --max-old-space-size=192 --conditions=payrail-compiled packages/server/dist/src/bin.js`),
 * or `tsx` (the TypeScript sources through the tsx loader, as before `npm start` ran compiled JavaScript; about
 * 100 MB more).
 */
export type Runtime = "compiled" | "tsx"

/** `BENCH_RUNTIME`: `compiled` (default) or `tsx`. */
export const runtimeFromEnv = (): Runtime => {
  const value = process.env["BENCH_RUNTIME"] ?? "compiled"
  if (value !== "compiled" && value !== "tsx") throw new Error(`BENCH_RUNTIME must be compiled or tsx, not ${value}`)
  return value
}

/** Whether the checkout at `checkout` can run compiled (its packages export the `payrail-compiled` condition). */
export const runsCompiled = (checkout: string): boolean => {
  const manifest: unknown = JSON.parse(readFileSync(path.join(checkout, "packages/server/package.json"), "utf8"))
  return JSON.stringify(manifest).includes('"payrail-compiled"')
}

const built = new Set<string>()

// `tsc -b` of the server and the packages it references, once per checkout and bench run (incremental: quick when
// nothing changed since the last build).
const build = (checkout: string) => {
  if (built.has(checkout)) return
  execFileSync(process.execPath, [path.join(checkout, "node_modules/typescript/bin/tsc"), "-b", "packages/server"], {
    cwd: checkout,
    stdio: ["ignore", "inherit", "inherit"]
  })
  built.add(checkout)
}

/** The node arguments that run `payrail serve` of the checkout at `checkout` the way `runtime` says. */
const serveArgs = (checkout: string, runtime: Runtime): ReadonlyArray<string> => {
  if (runtime === "tsx") return ["--import", "tsx", path.join(checkout, "packages/server/src/bin.ts"), "serve"]
  if (!runsCompiled(checkout)) throw new Error(`${checkout} has no payrail-compiled exports: use BENCH_RUNTIME=tsx`)
  build(checkout)
  return ["--conditions=payrail-compiled", path.join(checkout, "packages/server/dist/src/bin.js"), "serve"]
}

/**
 * The reference server (`payrail serve`, compiled unless `runtime` is `tsx`) on PostgreSQL at `databaseUrl`, or on
 * PGlite, with LOG_LEVEL=warning and the per-token request limit off (the bench sends thousands of requests a second
 * on one token; the limit would answer most of them 429 and the figures would measure refusals). Its data directory is `dataDir`, or a temporary one deleted at the end; the first
 * start on a directory bootstraps a sandbox platform whose credentials it keeps in
 * `<data dir>/sandbox-credentials.json`; they are read from there. `nodeFlags` go before the script (for example
 * `--cpu-prof`); `root` is the checkout whose server runs (default: this one).
 */
export const startReference = async (options: {
  readonly storage: "postgres" | "pglite"
  readonly databaseUrl?: string
  readonly nodeFlags?: ReadonlyArray<string>
  readonly root?: string
  readonly runtime?: Runtime
  readonly dataDir?: string
  /** More environment for the server (for example `PAYRAIL_JOB_CONCURRENCY`). */
  readonly env?: Readonly<Record<string, string>>
}): Promise<ReferenceServer> => {
  const dataDir = options.dataDir ?? (await temporaryDataDir(options.storage))
  const port = await freePort()
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const name of Object.keys(env)) if (name.startsWith("PAYRAIL_") || name === "DATABASE_URL") delete env[name]
  Object.assign(env, {
    HOST: "127.0.0.1",
    PORT: String(port),
    LOG_LEVEL: "warning",
    PAYRAIL_TOKEN_REQUESTS_PER_SECOND: "0",
    PAYRAIL_STORAGE: options.storage,
    PAYRAIL_DATA_DIR: dataDir,
    ...(options.databaseUrl === undefined ? {} : { DATABASE_URL: options.databaseUrl }),
    ...options.env
  })
  const runtime = options.runtime ?? "compiled"
  const label = `reference server on ${options.storage === "postgres" ? "PostgreSQL" : "PGlite"}${runtime === "tsx" ? " through tsx" : ""}${options.root === undefined ? "" : ` (${options.root})`}`
  // npm start caps the compiled server's V8 heap at 192 MB (scripts/bootstrap.mjs); a limit in `nodeFlags` comes later
  // on the command line and wins.
  const heapCap = runtime === "compiled" ? ["--max-old-space-size=192"] : []
  const args = [...heapCap, ...(options.nodeFlags ?? []), ...serveArgs(options.root ?? root, runtime)]
  const server = await startNode(label, args, env, port, "/health", 180_000)
  // The banner (and the credentials file) come after the listener is up: wait until the file holds a whole document.
  const file = path.join(dataDir, "sandbox-credentials.json")
  const read = () =>
    readFile(file, "utf8")
      .then(
        (text) => SandboxCredentials(JSON.parse(text)),
        () => undefined
      )
      .catch(() => undefined)
  const deadline = performance.now() + 30_000
  let credentials = await read()
  while (credentials === undefined && performance.now() < deadline) {
    await sleep(100)
    credentials = await read()
  }
  if (credentials === undefined) throw new Error(`${label} wrote no credentials to ${file}`)
  const authorization = `Basic ${Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString("base64")}`
  return { ...server, storage: options.storage, platformId: credentials.platformId, authorization }
}
