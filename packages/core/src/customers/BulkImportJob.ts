import { Effect, Schema } from "effect"
import { JobErrors, JobHandler } from "../events/index.js"
import { PlatformId } from "../kernel/index.js"
import { BulkImportId } from "./BulkImport.js"
import { BulkImports, kind } from "./BulkImports.js"

const Payload = Schema.Struct({ bulkImportId: BulkImportId })
const decodePayload = Schema.decodeUnknown(Payload)

/**
 * The handler of bulk import batches (kind `customers.bulkImport`): each job runs one batch of an import and, in the
 * same unit of work, enqueues the next, so no job outlives its lease however long the file. A job whose payload or
 * platform is unreadable is buried at once; a store failure is retried with the default policy.
 */
export const handler = JobHandler.make({
  kind,
  handle: (job) =>
    Effect.gen(function* () {
      const payload = yield* Effect.mapError(decodePayload(job.payload), () =>
        JobErrors.JobFailed.permanent("the bulk import job's payload is malformed")
      )
      const platformId = yield* Effect.mapError(Schema.decodeUnknown(PlatformId.PlatformId)(job.platformId), () =>
        JobErrors.JobFailed.permanent("the bulk import job has no platform")
      )
      const imports = yield* BulkImports
      yield* imports
        .runBatch(platformId, payload.bulkImportId)
        .pipe(Effect.mapError((failure) => JobErrors.JobFailed.retry(`bulk import batch: ${failure.operation}`)))
    })
})
