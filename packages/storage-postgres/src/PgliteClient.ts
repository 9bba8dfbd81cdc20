import { spawn } from "node:child_process"
import { access, mkdir } from "node:fs/promises"
import { createRequire } from "node:module"
import path from "node:path"
import * as Reactivity from "@effect/experimental/Reactivity"
import * as PgClient from "@effect/sql-pg/PgClient"
import * as SqlClient from "@effect/sql/SqlClient"
import type { Connection } from "@effect/sql/SqlConnection"
import { SqlError } from "@effect/sql/SqlError"
import { PGlite, type PGliteOptions } from "@electric-sql/pglite"
import { Context, Effect, Layer, type Scope, Stream } from "effect"
import * as PgliteLock from "./PgliteLock.js"

/** The lock failures opening a `dataDir` can fail with (as the `cause` of the `SqlError`). */
export { DataDirectoryInUse, LockFailure } from "./PgliteLock.js"

/** Where the embedded database lives. */
export interface Options {
  /**
   * A directory holding the database files, created (with its parents) on first use and reopened with its data
   * afterwards. Without it the database lives in memory and is gone when the layer is released.
   */
  readonly dataDir?: string
  /**
   * A `dumpDataDir` tarball to start from instead of running initdb (about 4.5 s). Only for a database that does
   * not exist yet: in memory, or a `dataDir` that is still empty.
   */
  readonly loadDataDir?: Blob
  /**
   * What this process is (`payrail serve`, `payrail platform create`), recorded in the data directory's lock so that
   * a process finding the directory in use can say who holds it. Defaults to the process's command line.
   */
  readonly owner?: string
}

type Row = Record<string, unknown>
type TransformRows = (<A extends object>(rows: ReadonlyArray<A>) => ReadonlyArray<A>) | undefined

const failure = (message: string) => (cause: unknown) => new SqlError({ cause, message })

// PGlite cannot cancel a statement once started, so a statement runs to its end even when its fiber is
// interrupted: the session is then handed to the next statement only once it is really free again.
const statement = <A>(run: () => Promise<A>): Effect.Effect<A, SqlError> =>
  Effect.uninterruptible(Effect.tryPromise({ try: run, catch: failure("Failed to execute statement") }))

const makeConnection = (db: PGlite): Connection => {
  const execute = (sql: string, params: ReadonlyArray<unknown>, transformRows: TransformRows) =>
    Effect.map(
      statement(() => db.query<Row>(sql, [...params])),
      (result) => (transformRows === undefined ? result.rows : transformRows(result.rows))
    )
  return {
    execute,
    executeRaw: (sql, params) => statement(() => db.query<Row>(sql, [...params])),
    executeValues: (sql, params) =>
      Effect.map(
        statement(() => db.query<ReadonlyArray<unknown>>(sql, [...params], { rowMode: "array" })),
        (result) => result.rows
      ),
    executeUnprepared: (sql, params, transformRows) =>
      params.length > 0
        ? execute(sql, params, transformRows)
        : Effect.map(
            statement(() => db.exec(sql)),
            (results) => {
              const rows: ReadonlyArray<Row> = results[results.length - 1]?.rows ?? []
              return transformRows === undefined ? rows : transformRows(rows)
            }
          ),
    // PGlite has no cursors: the rows are read at once and then streamed.
    executeStream: (sql, params, transformRows) => Stream.fromIterableEffect(execute(sql, params, transformRows))
  }
}

const isDirectory = (dataDir: string | undefined): dataDir is string =>
  dataDir !== undefined && !dataDir.includes("://")

// Two PGlite instances on one directory (two processes, or two layers of one process) overwrite each other's
// files: the data directory is locked first, and the lock failure travels as the SqlError's cause.
const lock = (options: Options): Effect.Effect<void, SqlError, Scope.Scope> =>
  isDirectory(options.dataDir)
    ? PgliteLock.acquire(options.dataDir, options.owner ?? process.argv.slice(1).join(" ")).pipe(
        Effect.mapError((cause) => new SqlError({ cause, message: cause.message }))
      )
    : Effect.void

// One process with a handful of connections' worth of work: PostgreSQL's default 128 MB of shared buffers is
// resident memory in the WASM heap, most of it never useful here.
const postgresqlconf = ["shared_buffers = 16MB"]

// PGlite itself, as `require` finds it from here: the initdb process below runs plain CommonJS, with no loader.
const pgliteModule = createRequire(import.meta.url).resolve("@electric-sql/pglite")

// The initdb process: creates the database (PGlite runs initdb on an empty directory) and closes it. It stops when
// its parent does (the IPC channel closes), so it never writes into a directory another process may have taken over.
const initdbScript = `
process.on("disconnect", () => process.exit(1))
const { module, options } = JSON.parse(process.argv[1])
require(module).PGlite.create(options)
  .then((db) => db.close())
  .then(() => process.exit(0), (error) => { console.error(error); process.exit(1) })
`

const hasDatabase = (dataDir: string): Promise<boolean> =>
  access(path.join(dataDir, "PG_VERSION")).then(
    () => true,
    () => false
  )

/**
 * Creates the database in the empty directory `dataDir` (initdb) in a child process, and resolves once that process
 * has closed it and exited. initdb grows the WebAssembly memory of the PGlite instance running it, which never
 * shrinks, and leaves a few hundred MB of freed buffers that the allocator keeps: run in the serving process (even
 * in an instance closed first, or in a worker thread) that memory stayed resident for the process's lifetime. A
 * process gives all of it back when it exits, so the serving instance opens an existing database and is as small as
 * on every later start.
 */
const initdb = (dataDir: string): Promise<void> =>
  new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["-e", initdbScript, JSON.stringify({ module: pgliteModule, options: { dataDir, postgresqlconf } })],
      { stdio: ["ignore", "ignore", "pipe", "ipc"] }
    )
    let stderr = ""
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
    child.once("error", reject)
    child.once("exit", (code, signal) =>
      code === 0
        ? resolve()
        : reject(new Error(`PGlite's initdb process exited with ${code ?? signal}: ${stderr.trim()}`))
    )
  })

const open = (options: Options): Effect.Effect<PGlite, SqlError> => {
  const { dataDir, loadDataDir } = options
  const pgliteOptions: PGliteOptions = {
    ...(dataDir === undefined ? {} : { dataDir }),
    ...(loadDataDir === undefined ? {} : { loadDataDir }),
    postgresqlconf
  }
  return Effect.tryPromise({
    try: async () => {
      if (isDirectory(dataDir)) {
        // PGlite creates the data directory but not its parents; URLs such as `memory://` are not directories.
        await mkdir(dataDir, { recursive: true })
        if (loadDataDir === undefined && !(await hasDatabase(dataDir))) await initdb(dataDir)
      }
      return PGlite.create(pgliteOptions)
    },
    catch: failure("Failed to open PGlite")
  })
}

/** Notifications of the PGlite database under the `SqlClient` (PGlite runs them in this process). */
export class Notifications extends Context.Tag("@payrail/storage-postgres/PgliteClient/Notifications")<
  Notifications,
  {
    /**
     * Calls `onNotify` with the payload of every notification on `channel` from now until the scope closes. It
     * takes the database session like a statement, so it never runs inside another fiber's unit of work.
     */
    readonly listen: (
      channel: string,
      onNotify: (payload: string) => void
    ) => Effect.Effect<void, SqlError, Scope.Scope>
  }
>() {}

const makeNotifications = (db: PGlite, session: Effect.Semaphore): Context.Tag.Service<Notifications> => ({
  listen: (channel, onNotify) =>
    Effect.acquireRelease(session.withPermits(1)(statement(() => db.listen(channel, onNotify))), (unlisten) =>
      session
        .withPermits(1)(statement(() => unlisten()))
        .pipe(Effect.ignore)
    )
})

/**
 * A `SqlClient` over an in-process PGlite database, with the PostgreSQL dialect of `@effect/sql-pg`, so the same
 * statements and migrations run on PGlite and on a PostgreSQL server.
 *
 * Guarantees: PGlite is a single database session, so the client lets one statement or one unit of work at a time
 * use it. `withTransaction` holds the session for its whole duration (nested calls become savepoints); other
 * statements wait until it commits or rolls back, so units of work are serializable. A statement inside a unit of
 * work must run on a fiber that inherits its context (any fiber forked inside it does). Statement failures are
 * `SqlError`s whose `cause` is PGlite's `DatabaseError`, carrying the SQLSTATE in `code` as `pg` does.
 *
 * A `dataDir` is opened by one holder at a time: while another live process (or another layer of this one) has it
 * open, opening fails with a `SqlError` whose `cause` is a `PgliteLock.DataDirectoryInUse` naming that process. The
 * lock is released after the database is closed.
 */
export const make = (
  options: Options
): Effect.Effect<
  { readonly client: SqlClient.SqlClient; readonly notifications: Context.Tag.Service<Notifications> },
  SqlError,
  Reactivity.Reactivity | Scope.Scope
> =>
  Effect.gen(function* () {
    yield* lock(options)
    const db = yield* Effect.acquireRelease(open(options), (db) =>
      Effect.tryPromise(() => db.close()).pipe(Effect.ignoreLogged)
    )
    const session = yield* Effect.makeSemaphore(1)
    const connection = makeConnection(db)
    const acquire: Connection.Acquirer = Effect.as(
      Effect.acquireRelease(session.take(1), () => session.release(1)),
      connection
    )
    const client = yield* SqlClient.make({
      acquirer: acquire,
      transactionAcquirer: acquire,
      compiler: PgClient.makeCompiler(),
      spanAttributes: [
        ["db.system.name", "postgresql"],
        ["db.namespace", "pglite"]
      ]
    })
    return { client, notifications: makeNotifications(db, session) }
  })

/**
 * Provides a `SqlClient` on a PGlite database opened from `options`, and its `Notifications`, and closes the
 * database when released.
 */
export const layer = (options: Options = {}): Layer.Layer<SqlClient.SqlClient | Notifications, SqlError> =>
  Layer.scopedContext(
    Effect.map(make(options), ({ client, notifications }) =>
      Context.make(SqlClient.SqlClient, client).pipe(Context.add(Notifications, notifications))
    )
  ).pipe(Layer.provide(Reactivity.layer))
