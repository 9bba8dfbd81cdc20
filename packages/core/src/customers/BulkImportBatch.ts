import { Effect, Either, Schedule } from "effect"
import { StoreFailure, UnitOfWork } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import { BulkImportError, type BulkImportRow } from "./BulkImport.js"
import * as BulkImportCsv from "./BulkImportCsv.js"
import type { CustomerDraft } from "./CustomerDraft.js"
import { PlatformCustomerIdTaken, UmaAddressTaken } from "./CustomerErrors.js"
import { CustomerRepo } from "./CustomerRepo.js"
import { Customers } from "./Customers.js"
import type { UmaAddress } from "./UmaAddress.js"

/** What imports one batch of rows: its failed rows, by line; the others are customers. */
export type ImportRows = (
  platform: Platform.Platform,
  header: ReadonlyArray<BulkImportCsv.Column>,
  rows: ReadonlyArray<BulkImportRow>
) => Effect.Effect<ReadonlyArray<BulkImportError>, StoreFailure.StoreFailure>

/** A row that passed validation: the customer it makes, not stored yet. */
interface Candidate {
  readonly row: BulkImportRow
  readonly umaAddress: UmaAddress
  readonly draft: CustomerDraft
}

// The failed-row entry of a row: its platformCustomerId (or line) as the correlation id, its line and column.
const entryOf =
  (header: ReadonlyArray<BulkImportCsv.Column>, row: BulkImportRow) =>
  (code: string, reason: string, field: string, extra: Partial<BulkImportError["details"]> = {}) => {
    const platformCustomerId = row.cells[header.indexOf("platformCustomerId")]?.trim() ?? ""
    return new BulkImportError({
      correlationId: platformCustomerId === "" ? String(row.line) : platformCustomerId,
      code,
      reason,
      message: reason,
      details: { line: row.line, field, ...extra }
    })
  }

// A concurrent `POST /customers` (or import) may take a platformCustomerId or an UMA address between the batch's check
// and its insert: the insert is undone (a savepoint) and the batch checked again, where the new holder now shows.
// Rare, so few tries.
const raceRetries = Schedule.recurs(3)

/**
 * Imports a batch set-wise, at a constant number of statements whatever its size, joining the caller's unit of
 * work. First every row is validated without the store, exactly as `POST /customers` validates its body
 * (`BulkImportCsv.toCustomer`, then `Customers.prepare`: dates in the past, the initial verification). Then the
 * conflicts are found in two queries for the whole batch: UMA addresses live customers carry
 * (`UMA_ADDRESS_EXISTS`), then platformCustomerIds live customers hold (`CONFLICT`); within the batch the first row
 * to claim an address or id wins and later rows fail as they would have one after the other. The rest are created
 * together (`Customers.createMany`). A row with invalid fields fails `INVALID_INPUT` whatever else is wrong with it.
 */
export const make: Effect.Effect<ImportRows, never, Customers | CustomerRepo | UnitOfWork.UnitOfWork> = Effect.gen(
  function* () {
    const customers = yield* Customers
    const repo = yield* CustomerRepo
    const store = yield* UnitOfWork.UnitOfWork

    const validate = (
      platform: Platform.Platform,
      header: ReadonlyArray<BulkImportCsv.Column>,
      row: BulkImportRow
    ): Effect.Effect<Either.Either<Candidate, BulkImportError>> => {
      const entry = entryOf(header, row)
      const parsed = BulkImportCsv.toCustomer(header, row.cells)
      if (Either.isLeft(parsed)) {
        const errors = parsed.left
        return Effect.succeed(
          Either.left(entry("INVALID_INPUT", "The row has invalid fields", errors[0]?.field ?? "row", { errors }))
        )
      }
      const { request, umaAddress } = parsed.right
      return customers.prepare(platform, request, { umaAddress }).pipe(
        Effect.map((draft) => Either.right({ row, umaAddress, draft })),
        Effect.catchTags({
          EndUserTermsVersionNotFound: (error) =>
            Effect.succeed(Either.left(entry(error.code, error.reason, "endUserTermsVersion"))),
          InvalidInput: (error) => {
            const errors = (error.details?.errors ?? []).map(BulkImportCsv.toColumn)
            return Effect.succeed(Either.left(entry(error.code, error.reason, errors[0]?.field ?? "row", { errors })))
          }
        })
      )
    }

    // The candidates' conflicts with live customers and with each other, then one creation of the others.
    const create = (
      platform: Platform.Platform,
      header: ReadonlyArray<BulkImportCsv.Column>,
      candidates: ReadonlyArray<Candidate>
    ) =>
      Effect.gen(function* () {
        const addresses = new Set(
          yield* repo.takenUmaAddresses(
            platform.id,
            candidates.map((candidate) => candidate.umaAddress)
          )
        )
        const platformCustomerIds = new Set(
          yield* repo.takenPlatformCustomerIds(
            platform.id,
            candidates.map((candidate) => candidate.draft.customer.platformCustomerId)
          )
        )
        const refused: Array<BulkImportError> = []
        const accepted: Array<CustomerDraft> = []
        for (const { draft, row, umaAddress } of candidates) {
          const entry = entryOf(header, row)
          const platformCustomerId = draft.customer.platformCustomerId
          if (addresses.has(umaAddress)) {
            const taken = UmaAddressTaken.of(umaAddress)
            refused.push(entry(taken.code, taken.reason, "umaAddress", { rule: taken.details.rule }))
          } else if (platformCustomerIds.has(platformCustomerId)) {
            const taken = PlatformCustomerIdTaken.of(platformCustomerId)
            refused.push(entry(taken.code, taken.reason, "platformCustomerId", { rule: taken.details.rule }))
          } else {
            addresses.add(umaAddress)
            platformCustomerIds.add(platformCustomerId)
            accepted.push(draft)
          }
        }
        yield* customers.createMany(platform, accepted)
        return refused
      })

    return (platform, header, rows) =>
      Effect.gen(function* () {
        const validated = yield* Effect.forEach(rows, (row) => validate(platform, header, row))
        const invalid = validated.flatMap((result) => (Either.isLeft(result) ? [result.left] : []))
        const candidates = validated.flatMap((result) => (Either.isRight(result) ? [result.right] : []))
        const conflicts = yield* store.transaction(create(platform, header, candidates)).pipe(
          Effect.retry({
            schedule: raceRetries,
            while: (error) => error._tag === "PlatformCustomerIdTaken" || error._tag === "UmaAddressTaken"
          }),
          Effect.catchTags({
            PlatformCustomerIdTaken: (error) =>
              Effect.fail(
                StoreFailure.StoreFailure.of(
                  `bulk import: platformCustomerId ${error.details.platformCustomerId} kept being taken`
                )
              ),
            UmaAddressTaken: (error) =>
              Effect.fail(
                StoreFailure.StoreFailure.of(`bulk import: UMA address ${error.details.umaAddress} kept being taken`)
              )
          })
        )
        return [...invalid, ...conflicts].sort((a, b) => a.details.line - b.details.line)
      }).pipe(Effect.withSpan("BulkImportBatch.importRows", { attributes: { rows: rows.length } }))
  }
)
