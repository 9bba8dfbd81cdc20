import { Context, Data, DateTime, Effect, Layer, Option, Schedule } from "effect"
import { type Customer, CustomerErrors, CustomerRepo } from "../customers/index.js"
import { Ids, type Page, ResourceId, StoreFailure, UnitOfWork } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import type { BeneficialOwnerId } from "./BeneficialOwner.js"
import { BeneficialOwnerRepo } from "./BeneficialOwnerRepo.js"
import { Document, type DocumentHolderId, type DocumentId } from "./Document.js"
import {
  DocumentFileTooLarge,
  DocumentFileUnsupported,
  DocumentHolderNotFound,
  DocumentNotFound,
  DocumentRejected,
  DocumentSubmitted,
  DocumentUnreadable
} from "./DocumentErrors.js"
import { DocumentLimits } from "./DocumentLimits.js"
import { DocumentRepo, type StoredDocument } from "./DocumentRepo.js"
import { DocumentReviewer } from "./DocumentReviewer.js"
import type { DocumentFields, DocumentFile, ReplaceDocumentFields } from "./DocumentRequest.js"
import * as DocumentSniffing from "./DocumentSniffing.js"
import { DocumentStore } from "./DocumentStore.js"

/** Why an upload was refused: its file, while it streamed in, or the document itself, by the provider's review. */
export type FileRefused = DocumentFileUnsupported | DocumentFileTooLarge | DocumentUnreadable | DocumentRejected

/** The document use cases. Every operation is scoped to the given platform. */
export class Documents extends Context.Tag("@payrail/core/Documents")<
  Documents,
  {
    /**
     * Checks the holder, streams the file into the `DocumentStore` (its type sniffed from its first bytes, its size
     * bounded by `DocumentLimits`), then stores the record and attaches the file in one unit of work: either both
     * exist afterwards or neither does (a refused or failed upload's bytes are discarded). A holder whose customer
     * (itself, or an owner's business) is deleted fails `CUSTOMER_DELETED`.
     */
    readonly upload: (
      platform: Platform.Platform,
      fields: DocumentFields,
      file: DocumentFile
    ) => Effect.Effect<
      Document,
      DocumentHolderNotFound | CustomerErrors.CustomerDeleted | FileRefused | StoreFailure.StoreFailure
    >
    readonly get: (
      platform: Platform.Platform,
      id: DocumentId
    ) => Effect.Effect<Document, DocumentNotFound | StoreFailure.StoreFailure>
    readonly list: (
      platform: Platform.Platform,
      filter: { readonly documentHolder?: DocumentHolderId | undefined },
      page: Page.PageRequest
    ) => Effect.Effect<Page.Page<Document>, StoreFailure.StoreFailure>
    /**
     * Replaces the document's fields and file (its holder stays), with the same guarantees as `upload`; the old
     * file is removed in the same unit of work. A replaced document counts as not yet submitted.
     */
    readonly replace: (
      platform: Platform.Platform,
      id: DocumentId,
      fields: ReplaceDocumentFields,
      file: DocumentFile
    ) => Effect.Effect<
      Document,
      | DocumentNotFound
      | DocumentHolderNotFound
      | CustomerErrors.CustomerDeleted
      | FileRefused
      | StoreFailure.StoreFailure
    >
    /** Deletes the record and its file together; refused (409) once a verification submitted it. */
    readonly delete: (
      platform: Platform.Platform,
      id: DocumentId
    ) => Effect.Effect<void, DocumentNotFound | DocumentSubmitted | StoreFailure.StoreFailure>
  }
>() {}

// A concurrent change won the compare-and-set: the unit of work is run again on the fresh record.
class Raced extends Data.TaggedError("Raced") {}

const isOwner = (holder: DocumentHolderId): holder is BeneficialOwnerId => holder.startsWith("BeneficialOwner:")

/** `Documents` on the storage ports. */
export const layer: Layer.Layer<
  Documents,
  never,
  | CustomerRepo.CustomerRepo
  | BeneficialOwnerRepo
  | DocumentRepo
  | DocumentStore
  | DocumentReviewer
  | UnitOfWork.UnitOfWork
  | Ids.Ids
> = Layer.effect(
  Documents,
  Effect.gen(function* () {
    const customers = yield* CustomerRepo.CustomerRepo
    const owners = yield* BeneficialOwnerRepo
    const repo = yield* DocumentRepo
    const store = yield* DocumentStore
    const uow = yield* UnitOfWork.UnitOfWork
    const ids = yield* Ids.Ids
    const reviewer = yield* DocumentReviewer

    // The provider's look at the declared document, before any byte of its file is stored.
    const review = (platform: Platform.Platform, fields: ReplaceDocumentFields) =>
      Effect.flatMap(
        reviewer.review({
          platform,
          documentType: fields.documentType,
          country: fields.country,
          documentNumber: fields.documentNumber
        }),
        Option.match({
          onNone: () => Effect.void,
          onSome: (reason) => Effect.fail(DocumentRejected.of(reason, fields.documentType))
        })
      )

    // The holder must exist on the platform, and its customer (the holder, or the owner's business) be live.
    const requireHolder = (platformId: Platform.PlatformId, holder: DocumentHolderId) =>
      Effect.gen(function* () {
        const customerId = isOwner(holder)
          ? Option.map(yield* owners.findById(platformId, holder), ({ owner }) => owner.customerId)
          : Option.some(holder as Customer.CustomerId)
        if (Option.isNone(customerId)) return yield* DocumentHolderNotFound.of(holder)
        const customer = yield* customers.findById(platformId, customerId.value)
        if (Option.isNone(customer)) return yield* DocumentHolderNotFound.of(holder)
        if (customer.value.customer.isDeleted) return yield* CustomerErrors.CustomerDeleted.of(customerId.value)
      })

    const find = (platformId: Platform.PlatformId, id: DocumentId) =>
      Effect.flatMap(
        repo.findById(platformId, id),
        Option.match({ onNone: () => Effect.fail(DocumentNotFound.of(id)), onSome: Effect.succeed })
      )

    // Streams the file into a fresh staged upload; answers its id, type and size.
    const stageFile = (platformId: Platform.PlatformId, file: DocumentFile) =>
      Effect.gen(function* () {
        const { maxFileBytes } = yield* DocumentLimits
        const uploadId = yield* ids.uuid
        const { checked, result } = yield* DocumentSniffing.inspect(file.content, maxFileBytes)
        yield* store.stage(platformId, uploadId, checked)
        const inspected = yield* result
        if (Option.isNone(inspected)) return yield* DocumentUnreadable.of("The file could not be read")
        return { uploadId, ...inspected.value }
      })

    // Runs `commit` (which attaches `uploadId`) as one unit of work, retried on a lost race; discards the staged
    // file when it does not commit.
    const commitWith = <A, E, R>(
      platformId: Platform.PlatformId,
      uploadId: string,
      commit: Effect.Effect<A, E | Raced, R>
    ) =>
      uow.transaction(commit).pipe(
        Effect.retry({ schedule: Schedule.recurs(5), while: (error) => error instanceof Raced }),
        Effect.catchTag("Raced", () =>
          Effect.fail(StoreFailure.StoreFailure.of("committing a document", "concurrent changes kept winning"))
        ),
        Effect.onError(() => Effect.ignore(store.discard(platformId, uploadId)))
      )

    const attach = (platformId: Platform.PlatformId, uploadId: string, id: DocumentId) =>
      Effect.flatMap(store.attach(platformId, uploadId, id), (attached) =>
        attached
          ? Effect.void
          : Effect.fail(StoreFailure.StoreFailure.of("attaching a document file", "the staged file is gone"))
      )

    return {
      upload: Effect.fn("Documents.upload")(function* (
        platform: Platform.Platform,
        fields: DocumentFields,
        file: DocumentFile
      ) {
        yield* requireHolder(platform.id, fields.documentHolder)
        yield* review(platform, fields)
        const staged = yield* stageFile(platform.id, file)
        const id = ResourceId.format("Document", yield* ids.uuid) as DocumentId
        const now = yield* DateTime.now
        const document = new Document({ ...fields, id, fileName: file.fileName, createdAt: now, updatedAt: now })
        yield* commitWith(
          platform.id,
          staged.uploadId,
          Effect.zipRight(
            repo.insert(platform.id, {
              document,
              contentType: staged.contentType,
              sizeBytes: staged.sizeBytes,
              submittedAt: Option.none(),
              version: 1
            }),
            attach(platform.id, staged.uploadId, id)
          )
        )
        return document
      }),
      get: Effect.fn("Documents.get")(function* (platform: Platform.Platform, id: DocumentId) {
        return (yield* find(platform.id, id)).document
      }),
      list: (platform, filter, page) => repo.list(platform.id, filter, page).pipe(Effect.withSpan("Documents.list")),
      replace: Effect.fn("Documents.replace")(function* (
        platform: Platform.Platform,
        id: DocumentId,
        fields: ReplaceDocumentFields,
        file: DocumentFile
      ) {
        yield* requireHolder(platform.id, (yield* find(platform.id, id)).document.documentHolder)
        yield* review(platform, fields)
        const staged = yield* stageFile(platform.id, file)
        return yield* commitWith(
          platform.id,
          staged.uploadId,
          Effect.gen(function* () {
            const current = yield* find(platform.id, id)
            const now = yield* DateTime.now
            const { side: _side, documentNumber: _number, issuingAuthority: _authority, ...kept } = current.document
            const document = new Document({ ...kept, ...fields, fileName: file.fileName, updatedAt: now })
            const next: StoredDocument = {
              document,
              contentType: staged.contentType,
              sizeBytes: staged.sizeBytes,
              submittedAt: Option.none(),
              version: current.version + 1
            }
            if (!(yield* repo.replace(platform.id, next, current.version))) return yield* new Raced()
            yield* attach(platform.id, staged.uploadId, id)
            return document
          })
        )
      }),
      delete: Effect.fn("Documents.delete")(function* (platform: Platform.Platform, id: DocumentId) {
        yield* uow.transaction(
          Effect.gen(function* () {
            const outcome = yield* repo.delete(platform.id, id)
            if (outcome === "missing") return yield* DocumentNotFound.of(id)
            if (outcome === "submitted") return yield* DocumentSubmitted.of(id)
            yield* store.remove(platform.id, id)
          })
        )
      })
    }
  })
)
