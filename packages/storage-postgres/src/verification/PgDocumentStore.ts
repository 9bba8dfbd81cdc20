import * as SqlClient from "@effect/sql/SqlClient"
import { DocumentStore, Errors } from "@payrail/core"
import { Chunk, type Context, DateTime, Effect, Layer, Option, Stream } from "effect"

const failed = (operation: string) => Errors.StoreFailure.wrap(`documentStore.${operation}`)

/**
 * Re-cuts `content` into pieces of exactly `size` bytes (the last one shorter), copying each byte once and holding
 * at most one piece.
 */
const rechunk = <E>(content: Stream.Stream<Uint8Array, E>, size: number): Stream.Stream<Uint8Array, E> =>
  Stream.suspend(() => {
    let piece = new Uint8Array(size)
    let filled = 0
    return content.pipe(
      Stream.mapConcat((chunk) => {
        const out: Array<Uint8Array> = []
        let offset = 0
        while (offset < chunk.length) {
          const take = Math.min(size - filled, chunk.length - offset)
          piece.set(chunk.subarray(offset, offset + take), filled)
          filled += take
          offset += take
          if (filled === size) {
            out.push(piece)
            piece = new Uint8Array(size)
            filled = 0
          }
        }
        return out
      }),
      Stream.concat(Stream.suspend(() => (filled === 0 ? Stream.empty : Stream.make(piece.subarray(0, filled)))))
    )
  })

/**
 * `DocumentStore` on the `document_files` and `document_file_chunks` tables (migration `0025_document_files`).
 *
 * Guarantees:
 * - `stage` inserts the file's row, then one row per 256 KiB chunk, each its own statement outside any transaction:
 *   a pooled connection is held only for the moment of one insert, never for the whole upload, and no more than
 *   one chunk is held in memory. A failed stage deletes its row (its chunks cascade).
 * - `attach` is two statements in the caller's transaction: delete the document's current file (only if the staged
 *   file exists), then set
 *   `document_id` on the staged row (guarded by `document_id IS NULL`), so a document's file changes atomically with
 *   its record.
 * - `read` fetches one chunk per statement, in `seq` order.
 * - `purgeStaged` deletes staged rows older than the cut-off in one bounded statement.
 */
export const make: Effect.Effect<
  Context.Tag.Service<DocumentStore.DocumentStore>,
  never,
  SqlClient.SqlClient
> = Effect.map(SqlClient.SqlClient, (sql) => {
  const discard = (platformId: string, uploadId: string) =>
    sql`DELETE FROM document_files
        WHERE upload_id = ${uploadId} AND platform_id = ${platformId} AND document_id IS NULL`.pipe(
      Effect.asVoid,
      Effect.mapError(failed("discard"))
    )

  const stage = <E>(platformId: string, uploadId: string, content: Stream.Stream<Uint8Array, E>) =>
    Effect.gen(function* () {
      const now = yield* DateTime.now
      yield* sql`INSERT INTO document_files ${sql.insert({
        upload_id: uploadId,
        platform_id: platformId,
        created_at: DateTime.toDateUtc(now)
      })}`.pipe(Effect.mapError(failed("stage")))
      return yield* rechunk(content, DocumentStore.chunkBytes).pipe(
        Stream.zipWithIndex,
        Stream.runFoldEffect(0, (written, [piece, seq]) =>
          Effect.as(
            sql`INSERT INTO document_file_chunks ${sql.insert({ upload_id: uploadId, seq, bytes: piece })}`.pipe(
              Effect.mapError(failed("stage"))
            ),
            written + piece.length
          )
        ),
        Effect.onError(() => Effect.ignore(discard(platformId, uploadId)))
      )
    })

  const attach = (platformId: string, uploadId: string, documentId: string) =>
    Effect.gen(function* () {
      yield* sql`DELETE FROM document_files WHERE platform_id = ${platformId} AND document_id = ${documentId}
        AND EXISTS (SELECT 1 FROM document_files
          WHERE upload_id = ${uploadId} AND platform_id = ${platformId} AND document_id IS NULL)`
      const rows = yield* sql<{ readonly uploadId: string }>`UPDATE document_files SET document_id = ${documentId}
          WHERE upload_id = ${uploadId} AND platform_id = ${platformId} AND document_id IS NULL
          RETURNING upload_id AS "uploadId"`
      return rows.length === 1
    }).pipe(Effect.mapError(failed("attach")))

  const chunkAt = (uploadId: string, seq: number) =>
    sql<{ readonly bytes: Uint8Array }>`SELECT bytes FROM document_file_chunks
        WHERE upload_id = ${uploadId} AND seq = ${seq}`.pipe(
      Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), (row) => Uint8Array.from(row.bytes))),
      Effect.mapError(failed("read"))
    )

  const read = (platformId: string, documentId: string) =>
    sql<{ readonly uploadId: string }>`SELECT upload_id AS "uploadId" FROM document_files
        WHERE platform_id = ${platformId} AND document_id = ${documentId}`.pipe(
      Effect.map((rows) =>
        Option.map(Option.fromNullable(rows[0]), ({ uploadId }) =>
          Stream.paginateChunkEffect(0, (seq) =>
            Effect.map(chunkAt(uploadId, seq), (found) =>
              Option.match(found, {
                onNone: () => [Chunk.empty<Uint8Array>(), Option.none<number>()] as const,
                onSome: (bytes) => [Chunk.of(bytes), Option.some(seq + 1)] as const
              })
            )
          )
        )
      ),
      Effect.mapError(failed("read"))
    )

  const remove = (platformId: string, documentId: string) =>
    sql`DELETE FROM document_files WHERE platform_id = ${platformId} AND document_id = ${documentId}`.pipe(
      Effect.asVoid,
      Effect.mapError(failed("remove"))
    )

  const purgeStaged = (before: DateTime.Utc, limit: number) =>
    sql<{ readonly uploadId: string }>`DELETE FROM document_files WHERE upload_id IN (
          SELECT upload_id FROM document_files
          WHERE document_id IS NULL AND created_at < ${DateTime.toDateUtc(before)}
          ORDER BY created_at LIMIT ${limit}
        ) RETURNING upload_id AS "uploadId"`.pipe(
      Effect.map((rows) => rows.length),
      Effect.mapError(failed("purgeStaged"))
    )

  return DocumentStore.DocumentStore.of({ stage, attach, discard, read, remove, purgeStaged })
})

/** Provides `DocumentStore` on the ambient `SqlClient`. */
export const layer: Layer.Layer<DocumentStore.DocumentStore, never, SqlClient.SqlClient> = Layer.effect(
  DocumentStore.DocumentStore,
  make
)
