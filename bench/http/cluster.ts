import { type ChildProcess, execFile, execFileSync, spawn } from "node:child_process"
import { chownSync, existsSync, readdirSync, readFileSync } from "node:fs"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import path from "node:path"
import { defer, freePort, sleep } from "./lifecycle.js"

/** Where the benchmarked server keeps its data, and how the bench reads PostgreSQL's own figures. */
export interface Database {
  /** Connection string of the database the reference server and pgbench use. */
  readonly url: string
  /** Connection string of a database on the same server for the bench's own queries (never counted). */
  readonly adminUrl: string
  /** The database's name: statement counts are filtered to it. */
  readonly name: string
  /** One line for the report: version, where, and the durability settings. */
  readonly description: string
  /** The postmaster's process id when the bench started the cluster itself (for its CPU time). */
  readonly postmasterPid: number | undefined
  /** Whether pg_stat_statements is loaded, so statements per request can be counted. */
  readonly statements: boolean
}

/** The directory of PostgreSQL's programs: BENCH_PG_BIN, else the newest /usr/lib/postgresql/<version>/bin. */
export const pgBin = (program: string): string => {
  const configured = process.env["BENCH_PG_BIN"]
  if (configured !== undefined && configured !== "") return path.join(configured, program)
  const root = "/usr/lib/postgresql"
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((name) => /^\d+$/.test(name))
        .sort((a, b) => Number(b) - Number(a))
    : []
  const found = versions
    .map((version) => path.join(root, version, "bin", program))
    .find((candidate) => existsSync(candidate))
  return found ?? program
}

/** Runs `sql` with psql against `url` and answers its unaligned, tab-separated output. */
export const psql = (url: string, sql: string): Promise<string> =>
  new Promise((resolve, reject) => {
    execFile(
      pgBin("psql"),
      ["-X", "-A", "-t", "-q", "-v", "ON_ERROR_STOP=1", "-F", "\t", "-d", url, "-c", sql],
      { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) =>
        error === null ? resolve(stdout) : reject(new Error(`psql: ${stderr || error.message}`))
    )
  })

const withDatabase = (url: string, name: string): string => {
  const parsed = new URL(url)
  parsed.pathname = `/${name}`
  return parsed.toString()
}

const describe = async (url: string, where: string): Promise<string> => {
  const settings = await psql(
    url,
    "SELECT current_setting('server_version'), current_setting('fsync'), current_setting('synchronous_commit'), current_setting('full_page_writes'), current_setting('shared_buffers')"
  )
  const [version, fsync, synchronousCommit, fullPageWrites, sharedBuffers] = settings.trim().split("\t")
  return `PostgreSQL ${version} ${where}: fsync=${fsync}, synchronous_commit=${synchronousCommit}, full_page_writes=${fullPageWrites}, shared_buffers=${sharedBuffers}`
}

const statementsLoaded = async (adminUrl: string): Promise<boolean> => {
  const libraries = await psql(adminUrl, "SELECT current_setting('shared_preload_libraries')")
  if (!libraries.split(",").some((library) => library.trim() === "pg_stat_statements")) return false
  await psql(adminUrl, "CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
  return true
}

// initdb and postgres refuse to run as root: when the bench is root, the cluster belongs to the `postgres` user.
const clusterUser = (): { readonly uid: number; readonly gid: number } | undefined => {
  if (process.getuid?.() !== 0) return undefined
  const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim())
  return { uid: id("-u"), gid: id("-g") }
}

const waitForExit = async (child: ChildProcess, ms: number): Promise<boolean> => {
  const deadline = performance.now() + ms
  while (child.exitCode === null && child.signalCode === null) {
    if (performance.now() > deadline) return false
    await sleep(50)
  }
  return true
}

const clusterPrefix = "payrail-bench-http-pg-"

// The process id in a data directory's postmaster.pid, if it names one that runs.
const runningPostmaster = (dataDir: string): number | undefined => {
  const file = path.join(dataDir, "postmaster.pid")
  if (!existsSync(file)) return undefined
  const pid = Number(readFileSync(file, "utf8").split("\n")[0])
  if (!Number.isSafeInteger(pid) || pid <= 0) return undefined
  try {
    process.kill(pid, 0)
    return pid
  } catch {
    return undefined
  }
}

// The parent of a process (from /proc), or undefined where /proc does not tell.
const parentOf = (pid: number): number | undefined => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1])
  } catch {
    return undefined
  }
}

/**
 * Deletes the clusters of benches that were killed before they could (SIGKILL, a lost terminal): a directory whose
 * postmaster no longer runs, or runs orphaned (its parent, the bench, is gone: adopted by init), which is stopped
 * first. A cluster of a bench still running is left alone.
 */
const sweepLeftovers = async (): Promise<void> => {
  for (const name of readdirSync(tmpdir()).filter((entry) => entry.startsWith(clusterPrefix))) {
    const directory = path.join(tmpdir(), name)
    const pid = runningPostmaster(path.join(directory, "data"))
    if (pid !== undefined) {
      if (parentOf(pid) !== 1) continue
      process.kill(pid, "SIGINT")
      const deadline = performance.now() + 15_000
      while (runningPostmaster(path.join(directory, "data")) !== undefined && performance.now() < deadline) {
        await sleep(100)
      }
    }
    console.error(`deleting ${directory}, left by a bench that did not end`)
    await rm(directory, { recursive: true, force: true })
  }
}

/**
 * A throw-away PostgreSQL cluster in a temporary directory, on a free port of 127.0.0.1, with the production
 * defaults for durability (fsync, synchronous_commit and full_page_writes on) and pg_stat_statements loaded
 * (tracking nested statements too). It is stopped and deleted when the bench ends; clusters that killed benches
 * left behind are deleted first.
 */
const startCluster = async (): Promise<Database> => {
  await sweepLeftovers()
  const directory = await mkdtemp(path.join(tmpdir(), clusterPrefix))
  defer("the PostgreSQL directory", () => rm(directory, { recursive: true, force: true }))
  const user = clusterUser()
  if (user !== undefined) chownSync(directory, user.uid, user.gid)
  const dataDir = path.join(directory, "data")
  execFileSync(
    pgBin("initdb"),
    ["-D", dataDir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-locale", "--no-sync"],
    {
      stdio: "pipe",
      ...user
    }
  )
  const port = await freePort()
  const settings = {
    listen_addresses: "127.0.0.1",
    port: String(port),
    unix_socket_directories: directory,
    shared_preload_libraries: "pg_stat_statements",
    "pg_stat_statements.track": "all",
    fsync: "on",
    synchronous_commit: "on",
    full_page_writes: "on",
    logging_collector: "off"
  }
  const args = ["-D", dataDir, ...Object.entries(settings).flatMap(([name, value]) => ["-c", `${name}=${value}`])]
  const postmaster = spawn(pgBin("postgres"), args, { stdio: ["ignore", "ignore", "pipe"], ...user })
  // The log is kept in memory (its last chunks) and shown when the bench fails.
  const log: Array<string> = []
  postmaster.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    log.push(chunk)
    if (log.length > 200) log.shift()
  })
  process.once("exit", (code) => {
    if (code !== 0 && log.length > 0)
      console.error(`PostgreSQL log (last lines):\n${log.join("").split("\n").slice(-30).join("\n")}`)
  })
  // Fast shutdown: sessions are ended, nothing is waited for; the directory is deleted afterwards anyway.
  defer("PostgreSQL", async () => {
    if (postmaster.exitCode !== null || postmaster.signalCode !== null) return
    postmaster.kill("SIGINT")
    if (!(await waitForExit(postmaster, 15_000))) postmaster.kill("SIGKILL")
  })
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`
  const deadline = performance.now() + 30_000
  for (;;) {
    if (postmaster.exitCode !== null) throw new Error(`PostgreSQL did not start:\n${log.join("")}`)
    if (
      await psql(adminUrl, "SELECT 1").then(
        () => true,
        () => false
      )
    )
      break
    if (performance.now() > deadline)
      throw new Error(`PostgreSQL did not accept connections within 30 s:\n${log.join("")}`)
    await sleep(100)
  }
  await psql(adminUrl, "CREATE DATABASE payrail")
  return {
    url: withDatabase(adminUrl, "payrail"),
    adminUrl,
    name: "payrail",
    description: await describe(adminUrl, `(a cluster of its own in ${directory}, 127.0.0.1:${port})`),
    postmasterPid: postmaster.pid,
    statements: await statementsLoaded(adminUrl)
  }
}

/** A throw-away database on the server of BENCH_DATABASE_URL, dropped (with its connections) when the bench ends. */
const useServer = async (serverUrl: string): Promise<Database> => {
  const name = `payrail_bench_http_${globalThis.crypto.randomUUID().replaceAll("-", "")}`
  await psql(serverUrl, `CREATE DATABASE ${name}`)
  defer("the bench database", async () => {
    await psql(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  })
  return {
    url: withDatabase(serverUrl, name),
    adminUrl: serverUrl,
    name,
    description: await describe(serverUrl, `at ${new URL(serverUrl).host} (BENCH_DATABASE_URL, database ${name})`),
    postmasterPid: undefined,
    statements: await statementsLoaded(serverUrl).catch(() => false)
  }
}

/** The database of this bench: on BENCH_DATABASE_URL when given, else on a cluster of its own. */
export const open = (): Promise<Database> => {
  const serverUrl = process.env["BENCH_DATABASE_URL"]
  return serverUrl !== undefined && serverUrl !== "" ? useServer(serverUrl) : startCluster()
}
