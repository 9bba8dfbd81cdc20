import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"

/** A migration's statements, run one after another on the ambient `SqlClient` (the Migrator's unit of work). */
export const statements = (
  ...run: ReadonlyArray<(sql: SqlClient.SqlClient) => Effect.Effect<unknown, SqlError>>
): Effect.Effect<void, SqlError, SqlClient.SqlClient> =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => Effect.forEach(run, (statement) => statement(sql), { discard: true }))
