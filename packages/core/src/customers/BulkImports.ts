import { Context, DateTime, Duration, Effect, Either, Layer, Option, Schema, Stream } from "effect"
import { DomainEvent, Ids, InvalidInput, Outbox, ResourceId, StoreFailure, UnitOfWork } from "../kernel/index.js"
import { Jobs } from "../events/index.js"
import { type Platform, PlatformRepo } from "../platforms/index.js"
import {
  BulkImport,
  BulkImportAccepted,
  BulkImportError,
  type BulkImportEventType,
  BulkImportId,
  type BulkImportRow,
  BulkImportView,
  isFinished
} from "./BulkImport.js"
import * as BulkCsvReader from "./BulkCsvReader.js"
import * as BulkImportCsv from "./BulkImportCsv.js"
import { BulkImportFileInvalid, BulkImportFileTooLarge, BulkImportNotFound } from "./BulkImportErrors.js"
import { BulkImportLimits } from "./BulkImportLimits.js"
import { BulkImportRepo } from "./BulkImportRepo.js"
import { CustomerRepo } from "./CustomerRepo.js"
import { Customers } from "./Customers.js"

/** The kind of the job that imports an import's next batch of rows. */
export const kind = "customers.bulkImport"

/** Which page of an import's failed rows to show: after a previous page's cursor, at most `limit` (1-100). */
export interface ErrorsPage {
  readonly cursor?: string | undefined
  readonly limit?: number | undefined
}

/**
 * How long after a batch the next one is due. On stores whose units of work run one at a time (PGlite, memory), the
 * pause is when other requests' units of work get their turn, so a long import does not starve them.
 */
export const batchPause = Duration.millis(50)

/** The default and largest number of failed rows one `get` shows. */
export const defaultErrorsLimit = 100

// The errors cursor: base64url of the JSON line number of the last error shown.
const ErrorsCursor = Schema.compose(Schema.StringFromBase64Url, Schema.parseJson(Schema.NonNegativeInt))

/** Bulk customer import: upload a CSV file as an import job, run its batches, show its progress and failed rows. */
export class BulkImports extends Context.Tag("@payrail/core/BulkImports")<
  BulkImports,
  {
    /**
     * Reads the CSV file as it streams in, checks its header (failing `BulkImportFileInvalid` naming the columns),
     * stores its rows in batches and enqueues the import's first batch, all in one unit of work: a refused or broken
     * upload leaves nothing. A file over `BulkImportLimits.maxFileBytes` fails `BulkImportFileTooLarge` as soon as
     * it passes the limit. Rows are not validated here: each batch validates its own.
     */
    readonly upload: <E>(
      platform: Platform.Platform,
      file: Stream.Stream<Uint8Array, E>
    ) => Effect.Effect<
      BulkImportAccepted,
      E | BulkImportFileInvalid | BulkImportFileTooLarge | StoreFailure.StoreFailure
    >
    /** The import with one page of its failed rows, by line. */
    readonly get: (
      platform: Platform.Platform,
      id: BulkImportId,
      page?: ErrorsPage
    ) => Effect.Effect<BulkImportView, BulkImportNotFound | InvalidInput.InvalidInput | StoreFailure.StoreFailure>
    /**
     * Imports the import's next batch, in one unit of work with its counts, its failed rows and the job of the batch
     * after it (or, after the last, the `BULK_UPLOAD.*` event). Safe to run again: a batch that already ran changes
     * nothing, so a worker that dies mid-batch leaves the batch to be run whole by the next one.
     */
    readonly runBatch: (
      platformId: Platform.PlatformId,
      id: BulkImportId
    ) => Effect.Effect<void, StoreFailure.StoreFailure>
  }
>() {}

const encodeView = Schema.encodeSync(BulkImportView)

const progressOf = (bulkImport: BulkImport) => ({
  total: bulkImport.total,
  processed: bulkImport.processed,
  successful: bulkImport.successful,
  failed: bulkImport.failed
})

export const layer = Layer.effect(
  BulkImports,
  Effect.gen(function* () {
    const repo = yield* BulkImportRepo
    const store = yield* UnitOfWork.UnitOfWork
    const jobs = yield* Jobs.Jobs
    const outbox = yield* Outbox.Outbox
    const ids = yield* Ids.Ids
    const platforms = yield* PlatformRepo.PlatformRepo
    const customers = yield* Customers
    const customerRepo = yield* CustomerRepo

    const enqueue = (platformId: Platform.PlatformId, id: BulkImportId, index: number, dueAt: DateTime.Utc) =>
      jobs.enqueue({
        kind,
        payload: { bulkImportId: id, batch: index },
        dueAt,
        platformId,
        deduplicationKey: `${id}:${index}`
      })

    const view = (bulkImport: BulkImport, page: ErrorsPage) =>
      Effect.gen(function* () {
        const limit = Math.min(Math.max(page.limit ?? defaultErrorsLimit, 1), defaultErrorsLimit)
        const afterLine =
          page.cursor === undefined
            ? 0
            : yield* Effect.mapError(Schema.decodeUnknown(ErrorsCursor)(page.cursor), () =>
                InvalidInput.InvalidInput.onField("errorsCursor", "must be an errorsNextCursor value of this job")
              )
        const rows = yield* repo.errors(bulkImport.id, afterLine, limit + 1)
        const errors = rows.slice(0, limit)
        const last = errors[errors.length - 1]
        const hasMore = rows.length > limit && last !== undefined
        return new BulkImportView({
          jobId: bulkImport.id,
          status: bulkImport.status,
          progress: progressOf(bulkImport),
          errors,
          errorsHasMore: hasMore,
          ...(hasMore ? { errorsNextCursor: Schema.encodeSync(ErrorsCursor)(last.details.line) } : {}),
          ...(bulkImport.completedAt === undefined ? {} : { completedAt: bulkImport.completedAt })
        })
      })

    // One row: a customer, or the entry that reports why not. Each customer is created in a unit of work nested in
    // the batch's, so a refused one leaves nothing and the batch goes on.
    const importRow = (
      platform: Platform.Platform,
      header: ReadonlyArray<BulkImportCsv.Column>,
      row: BulkImportRow
    ): Effect.Effect<Option.Option<BulkImportError>, StoreFailure.StoreFailure> =>
      Effect.gen(function* () {
        const platformCustomerId = row.cells[header.indexOf("platformCustomerId")]?.trim() ?? ""
        const entry = (code: string, reason: string, field: string, extra: Partial<BulkImportError["details"]> = {}) =>
          Option.some(
            new BulkImportError({
              correlationId: platformCustomerId === "" ? String(row.line) : platformCustomerId,
              code,
              reason,
              details: { line: row.line, field, ...extra }
            })
          )
        const parsed = BulkImportCsv.toCustomer(header, row.cells)
        if (Either.isLeft(parsed)) {
          const errors = parsed.left
          return entry("INVALID_INPUT", "The row has invalid fields", errors[0]?.field ?? "row", { errors })
        }
        const { request, umaAddress } = parsed.right
        if (Option.isSome(yield* customerRepo.findByUmaAddress(platform.id, umaAddress))) {
          return entry("UMA_ADDRESS_EXISTS", "Another customer of this platform has this UMA address", "umaAddress")
        }
        return yield* customers.create(platform, request, { umaAddress }).pipe(
          Effect.as(Option.none<BulkImportError>()),
          Effect.catchTags({
            PlatformCustomerIdTaken: (error) =>
              Effect.succeed(entry(error.code, error.reason, "platformCustomerId", { rule: error.details.rule })),
            EndUserTermsVersionNotFound: (error) =>
              Effect.succeed(entry(error.code, error.reason, "endUserTermsVersion")),
            InvalidInput: (error) => {
              const errors = (error.details?.errors ?? []).map(BulkImportCsv.toColumn)
              return Effect.succeed(entry(error.code, error.reason, errors[0]?.field ?? "row", { errors }))
            }
          })
        )
      })

    const event = (platformId: Platform.PlatformId, type: BulkImportEventType, data: BulkImportView) =>
      DomainEvent.make(platformId, type, encodeView(data)).pipe(Effect.provideService(Ids.Ids, ids))

    return {
      upload: Effect.fn("BulkImports.upload")(function* <E>(
        platform: Platform.Platform,
        file: Stream.Stream<Uint8Array, E>
      ) {
        const { batchRows, maxFileBytes } = yield* BulkImportLimits
        const id = BulkImportId.make(ResourceId.format("Job", yield* ids.uuid))
        return yield* store.transaction(
          Effect.gen(function* () {
            const reader = BulkCsvReader.make()
            let header: ReadonlyArray<BulkImportCsv.Column> | undefined
            let batch: Array<BulkImportRow> = []
            let batches = 0
            let total = 0
            const take = (records: ReadonlyArray<BulkCsvReader.CsvRecord>) =>
              Effect.gen(function* () {
                for (const record of records) {
                  if (header === undefined) {
                    const checked = BulkImportCsv.checkHeader(record.cells)
                    if (Either.isLeft(checked)) return yield* BulkImportFileInvalid.header(checked.left)
                    header = checked.right
                    continue
                  }
                  batch.push({ line: record.line, cells: record.cells })
                  total += 1
                  if (batch.length >= batchRows) {
                    yield* repo.insertBatch(id, batches, batch)
                    batches += 1
                    batch = []
                  }
                }
              })
            const read = (result: Either.Either<ReadonlyArray<BulkCsvReader.CsvRecord>, string>) =>
              Either.isLeft(result) ? Effect.fail(BulkImportFileInvalid.malformed(result.left)) : take(result.right)
            let bytesRead = 0
            yield* Stream.runForEach(file, (bytes) =>
              Effect.suspend(
                (): Effect.Effect<void, BulkImportFileInvalid | BulkImportFileTooLarge | StoreFailure.StoreFailure> => {
                  bytesRead += bytes.length
                  return bytesRead > maxFileBytes
                    ? Effect.fail(BulkImportFileTooLarge.of(maxFileBytes))
                    : read(reader.push(bytes))
                }
              )
            )
            yield* Effect.suspend(() => read(reader.end()))
            if (header === undefined) return yield* BulkImportFileInvalid.empty()
            if (batch.length > 0) {
              yield* repo.insertBatch(id, batches, batch)
              batches += 1
            }
            const now = yield* DateTime.now
            yield* repo.insert(
              new BulkImport({
                id,
                platformId: platform.id,
                status: "PENDING",
                columns: header,
                total,
                processed: 0,
                successful: 0,
                failed: 0,
                batchCount: batches,
                nextBatch: 0,
                createdAt: now,
                updatedAt: now
              })
            )
            yield* enqueue(platform.id, id, 0, now)
            return new BulkImportAccepted({ jobId: id, status: "PENDING" })
          })
        )
      }),

      get: Effect.fn("BulkImports.get")(function* (platform: Platform.Platform, id: BulkImportId, page = {}) {
        const found = yield* repo.find(platform.id, id)
        if (Option.isNone(found)) return yield* BulkImportNotFound.of(id)
        return yield* view(found.value, page)
      }),

      runBatch: Effect.fn("BulkImports.runBatch")(function* (platformId: Platform.PlatformId, id: BulkImportId) {
        const found = yield* repo.find(platformId, id)
        if (Option.isNone(found) || isFinished(found.value.status)) return
        const platform = yield* platforms.findById(platformId)
        if (Option.isNone(platform)) return
        const index = found.value.nextBatch
        yield* store.transaction(
          Effect.gen(function* () {
            const now = yield* DateTime.now
            const started = yield* repo.startBatch(platformId, id, index, now)
            // Another worker ran this batch: it is recorded, with the job of the next.
            if (Option.isNone(started)) return
            const bulkImport = started.value
            const header = bulkImport.columns as ReadonlyArray<BulkImportCsv.Column>
            const rows = Option.getOrElse(yield* repo.findBatch(id, index), () => [])
            const errors: Array<BulkImportError> = []
            for (const row of rows) {
              const failed = yield* importRow(platform.value, header, row)
              if (Option.isSome(failed)) errors.push(failed.value)
            }
            const successful = bulkImport.successful + rows.length - errors.length
            const last = index + 1 >= bulkImport.batchCount
            const status = !last ? "PROCESSING" : successful > 0 || bulkImport.total === 0 ? "COMPLETED" : "FAILED"
            yield* repo.recordBatch(platformId, id, index, {
              successful: rows.length - errors.length,
              failed: errors.length,
              errors,
              status,
              now,
              ...(last ? { completedAt: now } : {})
            })
            if (!last) return yield* enqueue(platformId, id, index + 1, DateTime.addDuration(now, batchPause))
            const finished = yield* repo.find(platformId, id)
            if (Option.isNone(finished)) return
            const shown = yield* Effect.orDie(view(finished.value, {}))
            yield* outbox.append(
              yield* event(platformId, status === "FAILED" ? "BULK_UPLOAD.FAILED" : "BULK_UPLOAD.COMPLETED", shown)
            )
          })
        )
      })
    }
  })
)
