import type * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import type * as Statement from "@effect/sql/Statement"
import { Errors } from "@payrail/core"
import { Context, Effect, Option, Schema } from "effect"

/** The steps of a write: data-modifying statements, each named so that a later step can read what it returns. */
export type Steps = ReadonlyArray<readonly [name: string, statement: Statement.Fragment]>

/**
 * A write whose outcome its caller does not read: `steps` builds its statements with the step names it is given
 * (`name("inserted")`), `recognize` turns the failures it knows (a unique violation it owns) into its own errors,
 * and `operation` names it in the `StoreFailure` of any other failure.
 */
export interface Write<E> {
  readonly operation: string
  readonly steps: (name: (step: string) => string) => Steps
  readonly recognize?: (error: SqlError) => Option.Option<E>
  /**
   * Rows that writes of the same `key` queued in one unit insert together, in the order they were queued, in one
   * step built by `steps` (the sub-statements of one statement run in no defined order, so rows whose order
   * matters, the outbox's sequence, go in one of them).
   */
  readonly merge?: Merge
}

/** See `Write.merge`. */
export interface Merge {
  readonly key: string
  readonly rows: ReadonlyArray<Record<string, unknown>>
  readonly steps: (rows: ReadonlyArray<Record<string, unknown>>) => (name: (step: string) => string) => Steps
}

// The steps of each write, writes that merge their rows taking one step at the place of the first of them.
const stepsOf = (writes: ReadonlyArray<Write<unknown>>): ReadonlyArray<(name: (step: string) => string) => Steps> => {
  const merged = new Map<string, Array<Record<string, unknown>>>()
  const out: Array<(name: (step: string) => string) => Steps> = []
  for (const write of writes) {
    const merge = write.merge
    if (merge === undefined) {
      out.push(write.steps)
      continue
    }
    const rows = merged.get(merge.key)
    if (rows !== undefined) {
      rows.push(...merge.rows)
      continue
    }
    const all = [...merge.rows]
    merged.set(merge.key, all)
    out.push((name) => merge.steps(all)(name))
  }
  return out
}

/** The steps of a write of one statement. */
export const single =
  (step: string, statement: Statement.Fragment) =>
  (name: (step: string) => string): Steps => [[name(step), statement]]

/** The most parameters one statement may bind (PostgreSQL's protocol limit). */
const maxParameters = 65_535

/** The writes a unit of work has queued and not yet sent. */
export class Queue {
  private queued: Array<Write<unknown>> = []

  get size(): number {
    return this.queued.length
  }

  add(write: Write<unknown>): void {
    this.queued.push(write)
  }

  /** Takes every queued write out, in the order they were queued. */
  take(): ReadonlyArray<Write<unknown>> {
    const taken = this.queued
    this.queued = []
    return taken
  }
}

/** The queue of the unit of work the fiber runs in (`PgUnitOfWork`); absent outside one. */
export class Pending extends Context.Tag("@payrail/storage-postgres/internal/writeBehind/Pending")<Pending, Queue>() {}

/**
 * The statements that run `writes`: one `WITH <steps> SELECT 1` holding all of them, or one per write when together
 * they bind more parameters than a statement may. The sub-statements of one `WITH` see the same snapshot and not
 * each other's rows, and foreign keys are checked when the statement ends, so writes that only insert (or bump a
 * counter of their own) combine safely.
 */
export const statements = (
  sql: SqlClient.SqlClient,
  writes: ReadonlyArray<Write<unknown>>
): ReadonlyArray<Compiled> => {
  const combined = statement(sql, writes)
  return writes.length === 1 || combined[1].length <= maxParameters
    ? [combined]
    : writes.map((write) => statement(sql, [write]))
}

/** A statement's text and parameters. */
type Compiled = readonly [text: string, params: ReadonlyArray<unknown>]

/** The one statement that runs `writes` (`WITH <steps> SELECT 1`), whatever its number of parameters. */
const statement = (sql: SqlClient.SqlClient, writes: ReadonlyArray<Write<unknown>>): Compiled => {
  const parts = stepsOf(writes).flatMap((steps, index) =>
    steps((step) => `w${index}_${step}`).map(([name, fragment]) => sql`${sql(name)} AS (${fragment})`)
  )
  return sql`WITH ${sql.join(", ", false)(parts)} SELECT 1`.compile()
}

/** The error a failed batch of `writes` fails with: the first a write recognizes, else a `StoreFailure` naming them. */
export const failureOf = <E>(writes: ReadonlyArray<Write<E>>, error: SqlError): E | Errors.StoreFailure => {
  for (const write of writes) {
    const recognized = write.recognize?.(error)
    if (recognized !== undefined && Option.isSome(recognized)) return recognized.value
  }
  return Errors.StoreFailure.of(writes.map((write) => write.operation).join(", "), error)
}

/**
 * Runs `write`: inside a unit of work of this package it is queued and sent with the unit's next statement batch
 * (before any statement that could read it, or at commit: a unit of only such writes is one statement and no
 * `BEGIN`), and its failure fails the unit; elsewhere it runs at once.
 */
export const write = <E>(sql: SqlClient.SqlClient, write: Write<E>): Effect.Effect<void, E | Errors.StoreFailure> =>
  Effect.flatMap(Effect.serviceOption(Pending), (pending) => {
    if (Option.isSome(pending)) {
      pending.value.add(write)
      return Effect.void
    }
    const [text, params] = statement(sql, [write])
    return sql.unsafe(text, params).pipe(
      Effect.asVoid,
      Effect.mapError((error) => failureOf([write], error))
    )
  })

// Encodes the request with `Request` (a failure is a `StoreFailure` of `operation`), builds the write from its encoded
// form with `build`, and runs it (`write`).
const encodedWrite = <A, I, E>(
  sql: SqlClient.SqlClient,
  options: {
    readonly Request: Schema.Schema<A, I>
    readonly operation: string
    readonly recognize?: ((request: A, error: SqlError) => Option.Option<E>) | undefined
  },
  build: (encoded: I) => Effect.Effect<Pick<Write<E>, "steps" | "merge">, unknown>
): ((request: A) => Effect.Effect<void, E | Errors.StoreFailure>) => {
  const encode = Schema.encode(options.Request)
  return (request: A): Effect.Effect<void, E | Errors.StoreFailure> => {
    const { recognize } = options
    return encode(request).pipe(
      Effect.flatMap(build),
      Effect.mapError(Errors.StoreFailure.wrap(options.operation)),
      Effect.flatMap((built) =>
        write(sql, {
          ...built,
          operation: options.operation,
          ...(recognize === undefined ? {} : { recognize: (error: SqlError) => recognize(request, error) })
        })
      )
    )
  }
}

/**
 * `write` for a request of `Request`'s type, as `SqlSchema.void` does it: the request is encoded at once (a failure
 * is a `StoreFailure` of `operation`) and `steps` builds the write's statements from its encoded form.
 */
export const encoded = <A, I, E = never>(
  sql: SqlClient.SqlClient,
  options: {
    readonly Request: Schema.Schema<A, I>
    readonly operation: string
    readonly steps: (encoded: I) => Effect.Effect<Write<E>["steps"], unknown>
    readonly recognize?: (request: A, error: SqlError) => Option.Option<E>
  }
): ((request: A) => Effect.Effect<void, E | Errors.StoreFailure>) =>
  encodedWrite(sql, options, (request) => Effect.map(options.steps(request), (steps) => ({ steps })))

/**
 * `encoded` for a write of rows that merge (`Write.merge`) with the rows of other writes of `key` queued in the same
 * unit: `rows` builds them from the encoded request, `steps` the statements that write any number of them.
 */
export const encodedRows = <A, I, E = never>(
  sql: SqlClient.SqlClient,
  options: {
    readonly Request: Schema.Schema<A, I>
    readonly operation: string
    readonly key: string
    readonly rows: (encoded: I) => Effect.Effect<ReadonlyArray<Record<string, unknown>>, unknown>
    readonly steps: Merge["steps"]
    readonly recognize?: (request: A, error: SqlError) => Option.Option<E>
  }
): ((request: A) => Effect.Effect<void, E | Errors.StoreFailure>) =>
  encodedWrite(sql, options, (request) =>
    Effect.map(options.rows(request), (rows) => ({
      steps: options.steps(rows),
      merge: { key: options.key, rows, steps: options.steps }
    }))
  )
