import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Effect, type Layer, Schema } from "effect"
import { BulkImportErrors, BulkImportLimits, BulkImports, Caller } from "@payrail/core"
import { type Authentication, PayrailApi } from "@payrail/api"
import { DocumentForm } from "../verification/index.js"

const { BulkImportFileInvalid, BulkImportFileTooLarge } = BulkImportErrors

const noFields = Schema.Struct({})

/**
 * Handlers of the bulk import group: check the permission (upload MANAGE, reads VIEW) before reading any of the
 * body, then stream the multipart form's `file` into `BulkImports.upload` without holding it whole. A body cut at
 * the size limit answers 413; what is left of a refused body is drained, so the answer reaches the client.
 */
export const layer: Layer.Layer<
  HttpApiGroup.ApiGroup<"payrail", "bulkImports">,
  never,
  BulkImports.BulkImports | Authentication.Authentication
> = HttpApiBuilder.group(PayrailApi.PayrailApi, "bulkImports", (handlers) =>
  Effect.gen(function* () {
    const imports = yield* BulkImports.BulkImports
    return handlers
      .handle("uploadCsv", ({ payload }) =>
        Effect.gen(function* () {
          const caller = yield* Caller.require("MANAGE")
          const { maxFileBytes } = yield* BulkImportLimits.BulkImportLimits
          return yield* Effect.scoped(
            Effect.gen(function* () {
              const form = yield* DocumentForm.read(payload, noFields).pipe(
                Effect.catchTags({
                  DocumentUnreadable: (error) =>
                    Effect.fail(
                      error.reason.includes("too large")
                        ? BulkImportFileTooLarge.of(maxFileBytes)
                        : BulkImportFileInvalid.unreadable(error.reason)
                    ),
                  InvalidInput: (error) => Effect.fail(BulkImportFileInvalid.unreadable(error.reason))
                })
              )
              return yield* imports.upload(caller.platform, form.file.content).pipe(
                Effect.catchTag("DocumentUnreadable", (error) =>
                  Effect.fail(
                    form.tooLarge()
                      ? BulkImportFileTooLarge.of(maxFileBytes)
                      : BulkImportFileInvalid.unreadable(error.reason)
                  )
                ),
                Effect.ensuring(form.drain)
              )
            })
          )
        })
      )
      .handle("getJob", ({ path, urlParams }) =>
        Effect.flatMap(Caller.require("VIEW"), (caller) =>
          imports.get(caller.platform, path.jobId, { cursor: urlParams.errorsCursor, limit: urlParams.errorsLimit })
        )
      )
  })
)
