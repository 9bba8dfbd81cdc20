import { expect } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import { BulkImport, BulkImportRepo, FieldError, type Platform, UnitOfWork } from "@payrail/core"
import * as Fixtures from "../Fixtures.js"
import type { Methods } from "../internal/Methods.js"

const newImport = (platformId: Platform.PlatformId, batchCount: number) =>
  new BulkImport.BulkImport({
    id: BulkImport.BulkImportId.make(`Job:${globalThis.crypto.randomUUID()}`),
    platformId,
    status: "PENDING",
    columns: ["platformCustomerId", "customerType"],
    total: batchCount * 2,
    processed: 0,
    successful: 0,
    failed: 0,
    batchCount,
    nextBatch: 0,
    createdAt: Fixtures.at(0),
    updatedAt: Fixtures.at(0)
  })

const rows = (from: number): ReadonlyArray<BulkImport.BulkImportRow> => [
  { line: from, cells: [`pc-${from}`, "INDIVIDUAL"] },
  { line: from + 1, cells: [`pc-${from + 1}`, 'BUSINESS, "quoted"'] }
]

const failure = (line: number) =>
  new BulkImport.BulkImportError({
    correlationId: `pc-${line}`,
    code: "INVALID_INPUT",
    reason: "The row has invalid fields",
    details: {
      line,
      field: "birthDate",
      errors: [new FieldError.FieldError({ field: "birthDate", message: "must be a date" })]
    }
  })

/**
 * Bulk imports: an import and its batches read back as stored, scoped to their platform; a batch is started once
 * (by exactly one of 20 concurrent starts), only in order and never once the import is finished; a recorded batch
 * adds its counts and failed rows (paged by line) and drops its rows; a batch rolled back with its unit of work can
 * be started again.
 */
export const register = (it: Methods) => {
  it.effect("reads an import and its batches back as stored, only on its own platform", () =>
    Effect.gen(function* () {
      const repo = yield* BulkImportRepo.BulkImportRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const bulkImport = newImport(platform.id, 2)
      yield* repo.insertBatch(bulkImport.id, 0, rows(2))
      yield* repo.insertBatch(bulkImport.id, 1, rows(4))
      yield* repo.insert(bulkImport)
      expect(yield* repo.find(platform.id, bulkImport.id)).toEqual(Option.some(bulkImport))
      expect(yield* repo.find(other.id, bulkImport.id)).toEqual(Option.none())
      expect(yield* repo.findBatch(bulkImport.id, 1)).toEqual(Option.some(rows(4)))
      expect(yield* repo.findBatch(bulkImport.id, 2)).toEqual(Option.none())
      const again = yield* Effect.either(repo.insertBatch(bulkImport.id, 1, rows(4)))
      expect(Either.isLeft(again) && again.left._tag).toBe("StoreFailure")
    })
  )

  it.effect("starts batches in order, records their outcome, and pages the failed rows by line", () =>
    Effect.gen(function* () {
      const repo = yield* BulkImportRepo.BulkImportRepo
      const platform = yield* Fixtures.insertPlatform
      const bulkImport = newImport(platform.id, 2)
      yield* repo.insertBatch(bulkImport.id, 0, rows(2))
      yield* repo.insertBatch(bulkImport.id, 1, rows(4))
      yield* repo.insert(bulkImport)
      expect(yield* repo.startBatch(platform.id, bulkImport.id, 1, Fixtures.at(1))).toEqual(Option.none())
      const started = yield* repo.startBatch(platform.id, bulkImport.id, 0, Fixtures.at(1))
      expect(Option.map(started, ({ nextBatch, status }) => ({ nextBatch, status }))).toEqual(
        Option.some({ nextBatch: 1, status: "PROCESSING" })
      )
      yield* repo.recordBatch(platform.id, bulkImport.id, 0, {
        successful: 1,
        failed: 1,
        errors: [failure(3)],
        status: "PROCESSING",
        now: Fixtures.at(2)
      })
      expect(yield* repo.findBatch(bulkImport.id, 0)).toEqual(Option.none())
      yield* repo.startBatch(platform.id, bulkImport.id, 1, Fixtures.at(3))
      yield* repo.recordBatch(platform.id, bulkImport.id, 1, {
        successful: 0,
        failed: 2,
        errors: [failure(4), failure(5)],
        status: "COMPLETED",
        now: Fixtures.at(4),
        completedAt: Fixtures.at(4)
      })
      const finished = Option.getOrThrow(yield* repo.find(platform.id, bulkImport.id))
      expect(finished).toEqual(
        new BulkImport.BulkImport({
          ...bulkImport,
          status: "COMPLETED",
          processed: 4,
          successful: 1,
          failed: 3,
          nextBatch: 2,
          updatedAt: Fixtures.at(4),
          completedAt: Fixtures.at(4)
        })
      )
      expect(yield* repo.startBatch(platform.id, bulkImport.id, 2, Fixtures.at(5))).toEqual(Option.none())
      expect(yield* repo.errors(bulkImport.id, 0, 2)).toEqual([failure(3), failure(4)])
      expect(yield* repo.errors(bulkImport.id, 4, 2)).toEqual([failure(5)])
    })
  )

  it.effect("lets exactly one of 20 concurrent starts of a batch win; a rolled-back start can be taken again", () =>
    Effect.gen(function* () {
      const repo = yield* BulkImportRepo.BulkImportRepo
      const store = yield* UnitOfWork.UnitOfWork
      const platform = yield* Fixtures.insertPlatform
      const bulkImport = newImport(platform.id, 1)
      yield* repo.insert(bulkImport)
      const rolledBack = yield* Effect.either(
        store.transaction(
          Effect.zipRight(repo.startBatch(platform.id, bulkImport.id, 0, Fixtures.at(1)), Effect.fail("crash"))
        )
      )
      expect(Either.isLeft(rolledBack)).toBe(true)
      const started = yield* Effect.all(
        Array.from({ length: 20 }, () =>
          store.transaction(repo.startBatch(platform.id, bulkImport.id, 0, Fixtures.at(2)))
        ),
        { concurrency: "unbounded" }
      )
      expect(started.filter(Option.isSome)).toHaveLength(1)
    })
  )
}
