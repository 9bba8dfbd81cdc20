import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import type { Fragment } from "@effect/sql/Statement"
import { Document, DocumentRepo, Errors, Page, Platform } from "@payrail/core"
import { type Context, Effect, Layer, Option, Schema } from "effect"
import { jsonText } from "../internal/encoding.js"
import { afterCursor, overfetch, PageRequest } from "../internal/keyset.js"
import { Count, record, Returned } from "../internal/rows.js"

/** A `DocumentRepo.StoredDocument` as a request: its submission time encodes to ISO-8601 text or null. */
const Stored = Schema.Struct({
  document: Document.Document,
  contentType: Document.DocumentContentType,
  sizeBytes: Schema.NonNegativeInt,
  submittedAt: Schema.OptionFromNullOr(Schema.DateTimeUtc),
  version: Schema.Int
})

/** The row of `SELECT record, content_type, size_bytes, submitted_at, version`, decoded to a stored document. */
const StoredRow = Schema.Struct({
  record: Document.Document,
  content_type: Document.DocumentContentType,
  size_bytes: Schema.NonNegativeInt,
  submitted_at: Schema.OptionFromNullOr(Schema.DateTimeUtcFromDate),
  version: Schema.Int
}).pipe(
  Schema.rename({
    record: "document",
    content_type: "contentType",
    size_bytes: "sizeBytes",
    submitted_at: "submittedAt"
  })
)

const ById = Schema.Struct({ platformId: Platform.PlatformId, id: Document.DocumentId })
const Listing = Schema.Struct({
  platformId: Platform.PlatformId,
  documentHolder: Schema.optional(Document.DocumentHolderId),
  page: PageRequest
})

const keyOf = (document: Document.Document): Page.Cursor => ({ createdAt: document.createdAt, id: document.id })

/**
 * `DocumentRepo` on the `documents` table (migration `0024_verification_records`), every statement scoped by
 * `platform_id`. Records are decoded with the core schema on every read; a row that does not decode fails as
 * `StoreFailure`.
 *
 * Guarantees:
 * - `insert` is one `INSERT` at version 1; a second insert of an id fails as `StoreFailure` and changes nothing.
 * - `replace` is one `UPDATE` guarded by `version = expectedVersion`: of concurrent replacements from one version
 *   exactly one applies.
 * - `delete` is one statement that locks the row, then deletes it only if `submitted_at` is null: a deletion racing
 *   `markSubmitted` either deletes first (the marking then finds nothing) or sees the submission and is refused.
 * - `markSubmitted` is one `UPDATE` that keeps an existing `submitted_at`; `list` is a keyset page newest first by
 *   `(created_at, id)` (ids in byte order) with its count; `listByHolders` reads oldest first.
 */
export const make: Effect.Effect<
  Context.Tag.Service<DocumentRepo.DocumentRepo>,
  never,
  SqlClient.SqlClient
> = Effect.map(SqlClient.SqlClient, (sql) => {
  const storedColumns = sql`record, content_type, size_bytes, submitted_at, version`

  // The columns of a stored document, from its encoded form.
  const columns = (stored: typeof Stored.Encoded) =>
    Effect.map(jsonText(stored.document), (json) => ({
      document_holder: stored.document.documentHolder,
      record: json,
      content_type: stored.contentType,
      size_bytes: stored.sizeBytes,
      submitted_at: stored.submittedAt,
      created_at: stored.document.createdAt
    }))

  const insert = SqlSchema.void({
    Request: Schema.Struct({ platformId: Platform.PlatformId, stored: Stored }),
    execute: ({ platformId, stored }) =>
      Effect.flatMap(
        columns(stored),
        (values) =>
          sql`INSERT INTO documents ${sql.insert({ id: stored.document.id, platform_id: platformId, ...values, version: 1 })}`
      )
  })

  const findById = SqlSchema.findOne({
    Request: ById,
    Result: StoredRow,
    execute: ({ platformId, id }) =>
      sql`SELECT ${storedColumns} FROM documents WHERE platform_id = ${platformId} AND id = ${id}`
  })

  const matching = (request: typeof Listing.Encoded): Array<Fragment> => [
    sql`platform_id = ${request.platformId}`,
    ...(request.documentHolder === undefined ? [] : [sql`document_holder = ${request.documentHolder}`])
  ]

  const rows = SqlSchema.findAll({
    Request: Listing,
    Result: record(Document.Document),
    execute: (request) => sql`SELECT record FROM documents
        WHERE ${sql.and([...matching(request), ...afterCursor(sql, request.page)])}
        ORDER BY created_at DESC, id COLLATE "C" DESC LIMIT ${overfetch(request.page)}`
  })

  const count = SqlSchema.single({
    Request: Listing,
    Result: Count,
    execute: (request) => sql`SELECT count(*)::int AS count FROM documents WHERE ${sql.and(matching(request))}`
  })

  const listByHolders = SqlSchema.findAll({
    Request: Schema.Struct({ platformId: Platform.PlatformId, holders: Schema.Array(Document.DocumentHolderId) }),
    Result: StoredRow,
    execute: ({ platformId, holders }) => sql`SELECT ${storedColumns} FROM documents
        WHERE platform_id = ${platformId} AND document_holder IN ${sql.in(holders)}
        ORDER BY created_at, id COLLATE "C"`
  })

  const replace = SqlSchema.findOne({
    Request: Schema.Struct({ platformId: Platform.PlatformId, next: Stored, expectedVersion: Schema.Int }),
    Result: Returned,
    execute: ({ platformId, next, expectedVersion }) =>
      Effect.flatMap(
        columns(next),
        (values) => sql`UPDATE documents SET ${sql.update({ ...values, version: expectedVersion + 1 })}
            WHERE platform_id = ${platformId} AND id = ${next.document.id} AND version = ${expectedVersion}
            RETURNING id`
      )
  })

  // `FOR UPDATE` waits for a concurrent change of the row and reads its committed version, so the outcome and the
  // guard of the `DELETE` both see a submission that committed first.
  const remove = SqlSchema.single({
    Request: ById,
    Result: Schema.Struct({ outcome: Schema.Literal("deleted", "submitted", "missing") }),
    execute: ({ platformId, id }) => sql`WITH locked AS (
          SELECT id, submitted_at FROM documents WHERE platform_id = ${platformId} AND id = ${id} FOR UPDATE
        ), deleted AS (
          DELETE FROM documents d USING locked
          WHERE d.platform_id = ${platformId} AND d.id = locked.id AND locked.submitted_at IS NULL
          RETURNING d.id
        )
        SELECT CASE WHEN EXISTS (SELECT 1 FROM deleted) THEN 'deleted'
          WHEN EXISTS (SELECT 1 FROM locked) THEN 'submitted' ELSE 'missing' END AS outcome`
  })

  const markSubmitted = SqlSchema.void({
    Request: Schema.Struct({
      platformId: Platform.PlatformId,
      ids: Schema.Array(Document.DocumentId),
      at: Schema.DateTimeUtc
    }),
    execute: ({ platformId, ids, at }) =>
      sql`UPDATE documents SET submitted_at = coalesce(submitted_at, ${at}::timestamptz), version = version + 1
        WHERE platform_id = ${platformId} AND id IN ${sql.in(ids)}`
  })

  return DocumentRepo.DocumentRepo.of({
    insert: (platformId, stored) =>
      insert({ platformId, stored }).pipe(Effect.mapError(Errors.StoreFailure.wrap("documents.insert"))),
    findById: (platformId, id) =>
      findById({ platformId, id }).pipe(Effect.mapError(Errors.StoreFailure.wrap("documents.findById"))),
    list: (platformId, filter, page) => {
      const request = { platformId, documentHolder: filter.documentHolder, page }
      return Effect.all([rows(request), count(request)], { concurrency: "unbounded" }).pipe(
        Effect.map(([documents, totalCount]) => Page.fromOverfetch(documents, page, keyOf, totalCount)),
        Effect.mapError(Errors.StoreFailure.wrap("documents.list"))
      )
    },
    listByHolders: (platformId, holders) =>
      holders.length === 0
        ? Effect.succeed([])
        : listByHolders({ platformId, holders }).pipe(
            Effect.mapError(Errors.StoreFailure.wrap("documents.listByHolders"))
          ),
    replace: (platformId, next, expectedVersion) =>
      replace({ platformId, next, expectedVersion }).pipe(
        Effect.map(Option.isSome),
        Effect.mapError(Errors.StoreFailure.wrap("documents.replace"))
      ),
    delete: (platformId, id) =>
      remove({ platformId, id }).pipe(
        Effect.map(({ outcome }) => outcome),
        Effect.mapError(Errors.StoreFailure.wrap("documents.delete"))
      ),
    markSubmitted: (platformId, ids, at) =>
      ids.length === 0
        ? Effect.void
        : markSubmitted({ platformId, ids, at }).pipe(
            Effect.mapError(Errors.StoreFailure.wrap("documents.markSubmitted"))
          )
  })
})

/** Provides `DocumentRepo` on the ambient `SqlClient`; the schema must be migrated (see `Migrations`). */
export const layer: Layer.Layer<DocumentRepo.DocumentRepo, never, SqlClient.SqlClient> = Layer.effect(
  DocumentRepo.DocumentRepo,
  make
)
