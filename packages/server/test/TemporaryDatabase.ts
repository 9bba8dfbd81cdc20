import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import { randomUUID } from "node:crypto"

/** A database created for one test on a PostgreSQL server. */
export interface TemporaryDatabase {
  /** Its connection string (same server and credentials, its own database name). */
  readonly url: string
  /** Drops it, closing what is still connected to it. */
  readonly drop: () => Promise<void>
}

const onServer = (serverUrl: string, statement: string) =>
  Effect.runPromise(
    Effect.flatMap(PgClient.PgClient, (sql) => sql.unsafe(statement)).pipe(
      Effect.provide(PgClient.layer({ url: Redacted.make(serverUrl) })),
      Effect.scoped
    )
  )

/** Creates `payrail_<prefix>_<random>` on the PostgreSQL server at `serverUrl` (for example `DATABASE_URL`). */
export const createTemporaryDatabase = async (serverUrl: string, prefix: string): Promise<TemporaryDatabase> => {
  const name = `payrail_${prefix}_${randomUUID().replaceAll("-", "")}`
  await onServer(serverUrl, `CREATE DATABASE ${name}`)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    drop: () => onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).then(() => undefined)
  }
}
