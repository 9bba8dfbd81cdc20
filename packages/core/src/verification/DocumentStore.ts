import { Context, type DateTime, type Effect, type Option, type Stream } from "effect"
import type { DocumentId } from "./Document.js"
import type { Platform } from "../platforms/index.js"
import type { StoreFailure } from "../kernel/index.js"

/** How much of a staged file a store keeps per piece: 256 KiB, so no side ever holds a whole file. */
export const chunkBytes = 256 * 1024

/**
 * The bytes of document files, kept apart from their records (`DocumentRepo`), scoped to one platform: another
 * platform's files are never read or changed.
 *
 * An upload is written in two steps so that no database transaction stays open while a slow client sends its file:
 * `stage` writes the bytes under a fresh `uploadId` *outside* any unit of work, in pieces, where no reader can see
 * them; then, in the unit of work that stores the document's record, `attach` makes the staged file the document's
 * file (dropping the one it replaces). A record therefore never exists without its file, and a refused or failed
 * upload leaves only a staged file: `discard` removes it at once, and `purgeStaged` (run by the hourly purge) removes
 * any that a crash left behind.
 *
 * An S3-compatible store plugs in here: `stage` is a multipart upload to a `staged/<uploadId>` key, `attach` records
 * the mapping `documentId -> uploadId` in the database within the unit of work (the object is immutable, so no copy
 * is needed) and queues the replaced object for deletion, and `purgeStaged` lists staged objects older than the
 * cut-off that no record points to. Its consistency rules: an object is written in full before `attach` may name it
 * (read-after-write for new keys), a document's file is only ever reached through the committed mapping, and a
 * deletion is only ever of an object no committed record names.
 */
export class DocumentStore extends Context.Tag("@payrail/core/DocumentStore")<
  DocumentStore,
  {
    /**
     * Writes `content` under `uploadId`, piece by piece as it arrives, outside any unit of work; answers how many
     * bytes it wrote. If `content` fails (or the write does), what was written is removed and the failure passes
     * through. The staged file is invisible to `read` until `attach`.
     */
    readonly stage: <E>(
      platformId: Platform.PlatformId,
      uploadId: string,
      content: Stream.Stream<Uint8Array, E>
    ) => Effect.Effect<number, E | StoreFailure.StoreFailure>
    /**
     * Makes the staged file `uploadId` the file of `documentId`, removing the document's previous file, in the
     * caller's unit of work. Answers false (changing nothing) when no such staged file exists (it was discarded or
     * purged).
     */
    readonly attach: (
      platformId: Platform.PlatformId,
      uploadId: string,
      documentId: DocumentId
    ) => Effect.Effect<boolean, StoreFailure.StoreFailure>
    /** Removes a staged file that will not be attached; a no-op for an unknown or attached one. */
    readonly discard: (
      platformId: Platform.PlatformId,
      uploadId: string
    ) => Effect.Effect<void, StoreFailure.StoreFailure>
    /** The document's file, streamed piece by piece in order; `None` when it has none. */
    readonly read: (
      platformId: Platform.PlatformId,
      documentId: DocumentId
    ) => Effect.Effect<Option.Option<Stream.Stream<Uint8Array, StoreFailure.StoreFailure>>, StoreFailure.StoreFailure>
    /** Removes the document's file, in the caller's unit of work; a no-op when it has none. */
    readonly remove: (
      platformId: Platform.PlatformId,
      documentId: DocumentId
    ) => Effect.Effect<void, StoreFailure.StoreFailure>
    /**
     * Removes up to `limit` staged files, of any platform, begun before `before` and never attached; answers how
     * many. Run by the hourly purge: an upload in progress is younger than any sensible cut-off.
     */
    readonly purgeStaged: (before: DateTime.Utc, limit: number) => Effect.Effect<number, StoreFailure.StoreFailure>
  }
>() {}
