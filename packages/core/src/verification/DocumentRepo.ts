import { Context, type DateTime, type Effect, type Option } from "effect"
import type { Document, DocumentContentType, DocumentHolderId, DocumentId } from "./Document.js"
import type { Page, StoreFailure } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"

/** A stored document's record: the API's `Document` plus what the server knows of its file and its submission. */
export interface StoredDocument {
  readonly document: Document
  /** The file type its content was sniffed as. */
  readonly contentType: DocumentContentType
  readonly sizeBytes: number
  /**
   * When a verification submitted it. A submitted document cannot be deleted (409); replacing it (`PUT`) clears
   * this, since the new file has not been submitted yet.
   */
  readonly submittedAt: Option.Option<DateTime.Utc>
  /** Increases by one with every change; `replace` only applies on the version it was read at. */
  readonly version: number
}

/** What `delete` did. */
export type DeleteOutcome = "deleted" | "submitted" | "missing"

/**
 * Storage of document records (not their files: see `DocumentStore`), scoped to one platform: another platform's
 * documents are never found, listed or changed.
 */
export class DocumentRepo extends Context.Tag("@payrail/core/DocumentRepo")<
  DocumentRepo,
  {
    /** Stores a new record at version 1. */
    readonly insert: (
      platformId: Platform.PlatformId,
      document: StoredDocument
    ) => Effect.Effect<void, StoreFailure.StoreFailure>
    readonly findById: (
      platformId: Platform.PlatformId,
      id: DocumentId
    ) => Effect.Effect<Option.Option<StoredDocument>, StoreFailure.StoreFailure>
    /** A newest-first page of the platform's documents, of one holder when given, with the total count. */
    readonly list: (
      platformId: Platform.PlatformId,
      filter: { readonly documentHolder?: DocumentHolderId | undefined },
      page: Page.PageRequest
    ) => Effect.Effect<Page.Page<Document>, StoreFailure.StoreFailure>
    /**
     * Every document of the given holders, oldest first by `(createdAt, id)`: what a verification checks (a customer
     * and its owners hold a handful each). Empty for an empty list.
     */
    readonly listByHolders: (
      platformId: Platform.PlatformId,
      holders: ReadonlyArray<DocumentHolderId>
    ) => Effect.Effect<ReadonlyArray<StoredDocument>, StoreFailure.StoreFailure>
    /**
     * Replaces the record if it is still at `expectedVersion` (compare-and-set), storing `next` at
     * `expectedVersion + 1`. Returns whether it applied.
     */
    readonly replace: (
      platformId: Platform.PlatformId,
      next: StoredDocument,
      expectedVersion: number
    ) => Effect.Effect<boolean, StoreFailure.StoreFailure>
    /**
     * Deletes the record unless a verification submitted it (`submitted`, nothing changes) or it does not exist
     * (`missing`). Guarded in the store, so a deletion racing a submission either deletes before it or is refused.
     */
    readonly delete: (
      platformId: Platform.PlatformId,
      id: DocumentId
    ) => Effect.Effect<DeleteOutcome, StoreFailure.StoreFailure>
    /** Marks the given documents submitted at `at` (those already submitted keep their time); bumps their versions. */
    readonly markSubmitted: (
      platformId: Platform.PlatformId,
      ids: ReadonlyArray<DocumentId>,
      at: DateTime.Utc
    ) => Effect.Effect<void, StoreFailure.StoreFailure>
  }
>() {}
