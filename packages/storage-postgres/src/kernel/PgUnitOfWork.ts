import * as SqlClient from "@effect/sql/SqlClient"
import type * as SqlConnection from "@effect/sql/SqlConnection"
import { SqlError } from "@effect/sql/SqlError"
import { Errors, UnitOfWork } from "@payrail/core"
import { Context, Effect, Exit, Layer, Option, Scope, Stream } from "effect"
import * as WriteBehind from "../internal/writeBehind.js"

const unitFailed = Errors.StoreFailure.wrap("a unit of work")
const endFailed = Errors.StoreFailure.wrap("the commit or rollback of a unit of work")

/** One outermost unit: its queued writes, and its connection once a statement needed a transaction. */
class Unit {
  readonly queue = new WriteBehind.Queue()
  readonly turn = Effect.unsafeMakeSemaphore(1)
  connection: SqlConnection.Connection | undefined = undefined
  scope: Scope.CloseableScope | undefined = undefined
  /** The first failure of its queued writes or of its `BEGIN`: the unit fails with it, whatever its effect made of it. */
  failure: Option.Option<unknown> = Option.none()

  /** Records the unit's failure (the first one is kept). */
  fail(failure: unknown): void {
    if (Option.isNone(this.failure)) this.failure = Option.some(failure)
  }
}

/**
 * `UnitOfWork.transaction` as one database transaction, begun lazily: the repositories of this package run their
 * statements on the unit's connection, so they commit together or not at all. Writes whose outcome the caller
 * does not read (`WriteBehind.write`: inserts of new rows, the outbox) are queued and sent together, as one
 * statement, before the unit's next other statement or at its end; the transaction begins (`BEGIN`) at the first
 * statement that is not such a write, so a unit made only of them is one statement on a pooled connection, atomic
 * on its own, without `BEGIN` or `COMMIT`. A queued write that fails fails the unit with its own error (a unique
 * violation it recognizes) even when the effect swallowed the failure of the statement that carried it.
 *
 * Nested calls run as savepoints of the outer transaction, their writes sent at once: nothing commits before the
 * outer one does, and a failing nested unit undoes its own writes. Failing to begin, commit or roll back is a
 * `StoreFailure`; the effect's own failures pass unchanged.
 */
export const make: Effect.Effect<Context.Tag.Service<UnitOfWork.UnitOfWork>, never, SqlClient.SqlClient> = Effect.map(
  SqlClient.SqlClient,
  (sql) => {
    // Sends the queued writes on `connection` (as statements of the client, so traced as any other); a failure is
    // the unit's (the first one is kept).
    const flush = (unit: Unit, connection: SqlConnection.Connection): Effect.Effect<void, SqlError> => {
      if (unit.queue.size === 0) return Effect.void
      const writes = unit.queue.take()
      return Effect.forEach(
        WriteBehind.statements(sql, writes),
        ([text, params]) =>
          Effect.provideService(sql.unsafe(text, params), SqlClient.TransactionConnection, [connection, 0] as const),
        { discard: true }
      ).pipe(Effect.tapError((error) => Effect.sync(() => unit.fail(WriteBehind.failureOf(writes, error)))))
    }

    // The unit's connection inside its transaction (begun now if it was not), the queued writes sent. One fiber of
    // the unit at a time: a fiber whose queued writes another fiber took must not run its next statement before
    // they are sent.
    const begun = (unit: Unit): Effect.Effect<SqlConnection.Connection, SqlError> =>
      unit.turn.withPermits(1)(
        Effect.suspend(() => {
          const ready = unit.connection
          if (ready !== undefined) return Effect.as(flush(unit, ready), ready)
          return Effect.flatMap(Scope.make(), (scope) => {
            unit.scope = scope
            return Scope.extend(sql.reserve, scope).pipe(
              Effect.tap((connection) => connection.executeUnprepared("BEGIN", [], undefined)),
              Effect.tap((connection) => {
                unit.connection = connection
              }),
              // The unit cannot commit what it queued: it fails, whatever the effect makes of this statement.
              Effect.tapError((error) => Effect.sync(() => unit.fail(error))),
              Effect.tap((connection) => flush(unit, connection))
            )
          })
        })
      )

    // What the unit's statements run on: the transaction's connection, begun by the first of them.
    const lazyConnection = (unit: Unit): SqlConnection.Connection => ({
      execute: (text, params, transform) =>
        Effect.flatMap(begun(unit), (connection) => connection.execute(text, params, transform)),
      executeRaw: (text, params) => Effect.flatMap(begun(unit), (connection) => connection.executeRaw(text, params)),
      executeValues: (text, params) =>
        Effect.flatMap(begun(unit), (connection) => connection.executeValues(text, params)),
      executeStream: (text, params, transform) =>
        Stream.unwrap(Effect.map(begun(unit), (connection) => connection.executeStream(text, params, transform))),
      executeUnprepared: (text, params, transform) =>
        Effect.suspend(() => {
          // Undoing a savepoint undoes what was queued since it began (the savepoint's statement sent the rest).
          if (text.startsWith("ROLLBACK TO SAVEPOINT")) unit.queue.take()
          return Effect.flatMap(begun(unit), (connection) => connection.executeUnprepared(text, params, transform))
        })
    })

    // A unit that never began: its queued writes in one statement on a pooled connection (or, past the parameter
    // limit of one statement, in a transaction of their own).
    const sendAlone = (writes: ReadonlyArray<WriteBehind.Write<unknown>>): Effect.Effect<void, unknown> => {
      const statements = WriteBehind.statements(sql, writes)
      const send = Effect.forEach(statements, ([text, params]) => sql.unsafe(text, params), { discard: true })
      return (statements.length === 1 ? send : sql.withTransaction(send)).pipe(
        Effect.mapError((error) => WriteBehind.failureOf(writes, error))
      )
    }

    // Ends a unit that began: sends what is queued and commits when the effect succeeded and nothing failed, rolls
    // back otherwise. The queued writes' failure comes first, then the effect's own.
    const end = <A>(
      unit: Unit,
      connection: SqlConnection.Connection,
      exit: Exit.Exit<A, unknown>
    ): Effect.Effect<A, unknown> => {
      const committing = Exit.isSuccess(exit) && Option.isNone(unit.failure)
      const outcome: Effect.Effect<void, unknown> = committing
        ? flush(unit, connection).pipe(
            Effect.matchEffect({
              onFailure: () => Effect.orDie(connection.executeUnprepared("ROLLBACK", [], undefined)),
              onSuccess: () => Effect.orDie(connection.executeUnprepared("COMMIT", [], undefined))
            })
          )
        : Effect.orDie(connection.executeUnprepared("ROLLBACK", [], undefined))
      return outcome.pipe(
        // A failed COMMIT or ROLLBACK is a defect of `orDie`; the caller must still learn of it.
        Effect.catchSomeDefect((defect) =>
          defect instanceof SqlError ? Option.some(Effect.fail(endFailed(defect))) : Option.none()
        ),
        Effect.zipRight(Effect.suspend(() => Option.match(unit.failure, { onNone: () => exit, onSome: Effect.fail })))
      )
    }

    const outermost = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | Errors.StoreFailure, R> =>
      Effect.uninterruptibleMask((restore) => {
        const unit = new Unit()
        const connection = lazyConnection(unit)
        return restore(effect).pipe(
          Effect.mapInputContext((context: Context.Context<R>) =>
            Context.add(context, WriteBehind.Pending, unit.queue).pipe(
              Context.add(SqlClient.TransactionConnection, [connection, 0] as const)
            )
          ),
          Effect.exit,
          Effect.flatMap((exit): Effect.Effect<A, unknown> => {
            if (unit.connection !== undefined) return end(unit, unit.connection, exit)
            const writes = unit.queue.take()
            if (Option.isSome(unit.failure)) return Effect.fail(unit.failure.value)
            return Exit.isSuccess(exit) && writes.length > 0 ? Effect.zipRight(sendAlone(writes), exit) : exit
          }),
          Effect.ensuring(
            Effect.suspend(() => (unit.scope === undefined ? Effect.void : Scope.close(unit.scope, Exit.void)))
          ),
          // Only writes made inside `effect` are queued, and they fail with errors of `effect`'s type.
          Effect.mapError((error) =>
            error instanceof SqlError ? unitFailed(error) : (error as E | Errors.StoreFailure)
          )
        )
      })

    // A unit inside another (or inside `withTransaction`): a savepoint, its writes sent at once.
    const nested = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | Errors.StoreFailure, R> =>
      sql
        .withTransaction(
          Effect.mapInputContext(
            effect,
            (context: Context.Context<R>) => Context.omit(WriteBehind.Pending)(context) as Context.Context<R>
          )
        )
        .pipe(
          Effect.mapError((error) => (error instanceof SqlError ? unitFailed(error) : error)),
          // @effect/sql turns a failed ROLLBACK TO SAVEPOINT into a defect; the caller must still learn of it.
          Effect.catchSomeDefect((defect) =>
            defect instanceof SqlError ? Option.some(Effect.fail(endFailed(defect))) : Option.none()
          )
        )

    return UnitOfWork.UnitOfWork.of({
      transaction: (effect) =>
        Effect.flatMap(Effect.serviceOption(SqlClient.TransactionConnection), (outer) =>
          Option.isSome(outer) ? nested(effect) : outermost(effect)
        )
    })
  }
)

/** Provides `UnitOfWork` on the ambient `SqlClient`. */
export const layer: Layer.Layer<UnitOfWork.UnitOfWork, never, SqlClient.SqlClient> = Layer.effect(
  UnitOfWork.UnitOfWork,
  make
)
