import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import { BulkImport, BulkImportRepo, Errors, Platform } from "@payrail/core"
import { type Context, Effect, Layer, Option, Schema } from "effect"
import { jsonText } from "../internal/encoding.js"
import { record } from "../internal/rows.js"

const encodeImport = Schema.encode(BulkImport.BulkImport)
const encodeRows = Schema.encode(Schema.Array(BulkImport.BulkImportRow))
const encodeError = Schema.encode(BulkImport.BulkImportError)
const Key = Schema.Struct({ platformId: Platform.PlatformId, id: Schema.String })
const BatchKey = Schema.Struct({ id: Schema.String, index: Schema.Int })

/**
 * `BulkImportRepo` on the `bulk_imports`, `bulk_import_batches` and `bulk_import_errors` tables (migration
 * `0036_bulk_imports`), every read of an import scoped by `platform_id`.
 *
 * Guarantees: `startBatch` is one guarded `UPDATE … WHERE next_batch = index AND status IN (PENDING, PROCESSING)`,
 * which also locks the import's row until the unit of work ends, so a concurrent run of the same batch waits and
 * then finds nothing to do; `recordBatch` runs under that lock; failed rows are inserted once per line.
 */
export const make: Effect.Effect<
  Context.Tag.Service<BulkImportRepo.BulkImportRepo>,
  never,
  SqlClient.SqlClient
> = Effect.map(SqlClient.SqlClient, (sql) => {
  const find = SqlSchema.findOne({
    Request: Key,
    Result: record(BulkImport.BulkImport),
    execute: ({ id, platformId }) =>
      sql`SELECT record FROM bulk_imports WHERE platform_id = ${platformId} AND id = ${id}`
  })

  const findBatch = SqlSchema.findOne({
    Request: BatchKey,
    Result: Schema.pluck(Schema.Struct({ rows: Schema.Array(BulkImport.BulkImportRow) }), "rows"),
    execute: ({ id, index }) =>
      sql`SELECT rows FROM bulk_import_batches WHERE bulk_import_id = ${id} AND batch = ${index}`
  })

  const startBatch = SqlSchema.findOne({
    Request: Schema.Struct({ ...Key.fields, index: Schema.Int, now: Schema.DateTimeUtc }),
    Result: record(BulkImport.BulkImport),
    execute: ({ id, index, now, platformId }) =>
      sql`UPDATE bulk_imports SET next_batch = next_batch + 1, status = 'PROCESSING',
            record = record || jsonb_build_object('nextBatch', next_batch + 1, 'status', 'PROCESSING',
              'updatedAt', ${now}::text)
          WHERE platform_id = ${platformId} AND id = ${id} AND next_batch = ${index}
            AND status IN ('PENDING', 'PROCESSING')
          RETURNING record`
  })

  const errors = SqlSchema.findAll({
    Request: Schema.Struct({ id: Schema.String, afterLine: Schema.Int, limit: Schema.Int }),
    Result: record(BulkImport.BulkImportError),
    execute: ({ afterLine, id, limit }) =>
      sql`SELECT record FROM bulk_import_errors WHERE bulk_import_id = ${id} AND line > ${afterLine}
          ORDER BY line LIMIT ${limit}`
  })

  const write = (bulkImport: BulkImport.BulkImport, insert: boolean) =>
    Effect.gen(function* () {
      const encoded = yield* encodeImport(bulkImport)
      const json = yield* jsonText(encoded)
      if (insert) {
        return yield* sql`INSERT INTO bulk_imports ${sql.insert({
          id: bulkImport.id,
          platform_id: bulkImport.platformId,
          status: bulkImport.status,
          next_batch: bulkImport.nextBatch,
          record: json,
          created_at: encoded.createdAt
        })}`
      }
      return yield* sql`UPDATE bulk_imports SET status = ${bulkImport.status}, next_batch = ${bulkImport.nextBatch},
          record = ${json}::jsonb WHERE platform_id = ${bulkImport.platformId} AND id = ${bulkImport.id}`
    })

  const fail = Errors.StoreFailure.wrap
  return BulkImportRepo.BulkImportRepo.of({
    insertBatch: (id, index, rows) =>
      Effect.gen(function* () {
        const json = yield* jsonText(yield* encodeRows(rows))
        yield* sql`INSERT INTO bulk_import_batches ${sql.insert({ bulk_import_id: id, batch: index, rows: json })}`
      }).pipe(Effect.mapError(fail("bulkImports.insertBatch"))),
    insert: (bulkImport) => write(bulkImport, true).pipe(Effect.asVoid, Effect.mapError(fail("bulkImports.insert"))),
    find: (platformId, id) => find({ platformId, id }).pipe(Effect.mapError(fail("bulkImports.find"))),
    findBatch: (id, index) => findBatch({ id, index }).pipe(Effect.mapError(fail("bulkImports.findBatch"))),
    startBatch: (platformId, id, index, now) =>
      startBatch({ platformId, id, index, now }).pipe(Effect.mapError(fail("bulkImports.startBatch"))),
    recordBatch: (platformId, id, index, outcome) =>
      Effect.gen(function* () {
        const current = yield* find({ platformId, id })
        if (Option.isNone(current)) return
        yield* write(
          new BulkImport.BulkImport({
            ...current.value,
            processed: current.value.processed + outcome.successful + outcome.failed,
            successful: current.value.successful + outcome.successful,
            failed: current.value.failed + outcome.failed,
            status: outcome.status,
            updatedAt: outcome.now,
            ...(outcome.completedAt === undefined ? {} : { completedAt: outcome.completedAt })
          }),
          false
        )
        if (outcome.errors.length > 0) {
          const rows = yield* Effect.forEach(outcome.errors, (error) =>
            Effect.map(Effect.flatMap(encodeError(error), jsonText), (json) => ({
              bulk_import_id: id,
              line: error.details.line,
              record: json
            }))
          )
          yield* sql`INSERT INTO bulk_import_errors ${sql.insert(rows)} ON CONFLICT DO NOTHING`
        }
        yield* sql`DELETE FROM bulk_import_batches WHERE bulk_import_id = ${id} AND batch = ${index}`
      }).pipe(Effect.mapError(fail("bulkImports.recordBatch"))),
    errors: (id, afterLine, limit) => errors({ id, afterLine, limit }).pipe(Effect.mapError(fail("bulkImports.errors")))
  })
})

/** Provides `BulkImportRepo` on the ambient `SqlClient`; the schema must be migrated (see `Migrations`). */
export const layer: Layer.Layer<BulkImportRepo.BulkImportRepo, never, SqlClient.SqlClient> = Layer.effect(
  BulkImportRepo.BulkImportRepo,
  make
)
