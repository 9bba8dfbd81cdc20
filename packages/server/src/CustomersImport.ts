import { openAsBlob } from "node:fs"
import { basename } from "node:path"
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Console, Duration, Effect, Schema } from "effect"
import * as ApiCall from "./ApiCall.js"
import * as Progress from "./Progress.js"

/** What `payrail customers import` needs to know. */
export interface Settings extends ApiCall.Target {
  /** The CSV file (docs/bulk-import.md has its columns). */
  readonly file: string
  /** How long to wait between two reads of the job's progress. */
  readonly pollInterval: Duration.Duration
  /** How many failed rows to print at the end (the rest stay readable through the API). */
  readonly showErrors: number
}

const Accepted = Schema.Struct({ jobId: Schema.String, status: Schema.String })
const RowError = Schema.Struct({
  correlationId: Schema.String,
  code: Schema.String,
  reason: Schema.String,
  details: Schema.Struct({ line: Schema.Number, field: Schema.String })
})
const Job = Schema.Struct({
  jobId: Schema.String,
  status: Schema.Literal("PENDING", "PROCESSING", "COMPLETED", "FAILED"),
  progress: Schema.Struct({
    total: Schema.Number,
    processed: Schema.Number,
    successful: Schema.Number,
    failed: Schema.Number
  }),
  errors: Schema.Array(RowError)
})

/**
 * Uploads the CSV file to a running server (`POST /customers/bulk/csv`, streamed from disk, never read whole), then
 * follows the import job (`GET /customers/bulk/jobs/{id}`) with progress on stderr until it ends, and prints the
 * outcome and the first failed rows by line and column on stdout. Stopping the command does not stop the import: the
 * job runs on the server, and its id is printed first.
 */
export const importCustomers = (settings: Settings): Effect.Effect<void, ApiCall.StepFailed> =>
  Effect.gen(function* () {
    const api = ApiCall.baseUrl(settings)
    const call = ApiCall.send(yield* ApiCall.authenticated(settings))

    const file = yield* Effect.tryPromise({
      try: () => openAsBlob(settings.file, { type: "text/csv" }),
      catch: (error) =>
        new ApiCall.StepFailed({
          step: "open the file",
          detail: error instanceof Error ? error.message : String(error)
        })
    })
    const form = new FormData()
    form.set("file", file, basename(settings.file))
    const accepted = yield* call(
      `upload ${settings.file}`,
      HttpClientRequest.bodyFormData(HttpClientRequest.post(`${api}/customers/bulk/csv`), form),
      Accepted
    )
    yield* Console.log(`Uploaded ${settings.file} (${file.size} bytes): import job ${accepted.jobId}`)

    const read = call(
      "read the import job",
      HttpClientRequest.get(
        `${api}/customers/bulk/jobs/${encodeURIComponent(accepted.jobId)}?errorsLimit=${Math.max(1, settings.showErrors)}`
      ),
      Job
    )
    let job = yield* read
    const progress = yield* Progress.make("rows", job.progress.total)
    let shown = 0
    for (;;) {
      if (job.progress.processed > shown) {
        yield* progress.advance(job.progress.processed - shown, `${job.progress.failed} failed`)
        shown = job.progress.processed
      }
      if (job.status === "COMPLETED" || job.status === "FAILED") break
      yield* Effect.sleep(settings.pollInterval)
      job = yield* read
    }
    const { failed, successful, total } = job.progress
    yield* progress.finish(`${successful} customers created, ${failed} rows failed, of ${total}`)
    for (const error of job.errors.slice(0, settings.showErrors)) {
      yield* Console.log(`line ${error.details.line}  ${error.details.field}  ${error.code}  ${error.reason}`)
    }
    if (failed > settings.showErrors) {
      yield* Console.log(
        `… and ${failed - settings.showErrors} more failed rows: GET ${api}/customers/bulk/jobs/${accepted.jobId}`
      )
    }
    yield* Console.log(`Import ${job.jobId} ${job.status}`)
    if (job.status === "FAILED") {
      return yield* new ApiCall.StepFailed({ step: "the import", detail: "no row of the file became a customer" })
    }
  }).pipe(Effect.provide(FetchHttpClient.layer))
