import * as SqlClient from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import { Errors, UnitOfWork } from "@payrail/core"
import { type Context, Effect, Layer, Option } from "effect"

const unitFailed = Errors.StoreFailure.wrap("a unit of work")
const endFailed = Errors.StoreFailure.wrap("the commit or rollback of a unit of work")

/**
 * `UnitOfWork.transaction` as a database transaction (`sql.withTransaction`): the repositories of this package run
 * their statements on its connection, so they commit together or not at all. Nested calls run as savepoints of
 * the outer transaction: nothing commits before the outer one does, and a failing nested unit undoes its own
 * writes. Failing to begin, commit or roll back is a `StoreFailure`; the effect's own failures pass unchanged.
 */
export const make: Effect.Effect<Context.Tag.Service<UnitOfWork.UnitOfWork>, never, SqlClient.SqlClient> = Effect.map(
  SqlClient.SqlClient,
  (sql) =>
    UnitOfWork.UnitOfWork.of({
      transaction: (effect) =>
        sql.withTransaction(effect).pipe(
          Effect.mapError((error) => (error instanceof SqlError ? unitFailed(error) : error)),
          // @effect/sql turns a failed COMMIT or ROLLBACK into a defect; the caller must still learn of it.
          Effect.catchSomeDefect((defect) =>
            defect instanceof SqlError ? Option.some(Effect.fail(endFailed(defect))) : Option.none()
          )
        )
    })
)

/** Provides `UnitOfWork` on the ambient `SqlClient`. */
export const layer: Layer.Layer<UnitOfWork.UnitOfWork, never, SqlClient.SqlClient> = Layer.effect(
  UnitOfWork.UnitOfWork,
  make
)
