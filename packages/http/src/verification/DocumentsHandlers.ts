import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import type * as Multipart from "@effect/platform/Multipart"
import { Effect, type Layer, type Schema, type Stream } from "effect"
import { Caller, DocumentErrors, DocumentLimits, DocumentRequest, Documents } from "@payrail/core"
import { type Authentication, PayrailApi } from "@payrail/api"
import { pageRequest } from "../internal/pageRequest.js"
import * as DocumentForm from "./DocumentForm.js"

/**
 * Reads the form, runs `use` on its fields and file, and drains what is left of the body whatever the outcome, so
 * the answer reaches the client; a body cut at the size limit answers 413.
 */
const withForm = <A, I, B, E, R>(
  parts: Stream.Stream<Multipart.Part, Multipart.MultipartError>,
  schema: Schema.Schema<A, I>,
  use: (fields: A, file: DocumentRequest.DocumentFile) => Effect.Effect<B, E, R>
) =>
  Effect.scoped(
    Effect.gen(function* () {
      const { maxFileBytes } = yield* DocumentLimits.DocumentLimits
      const form = yield* DocumentForm.read(parts, schema).pipe(
        Effect.catchTag("DocumentUnreadable", (error) =>
          Effect.fail(error.reason.includes("too large") ? DocumentErrors.DocumentFileTooLarge.of(maxFileBytes) : error)
        )
      )
      return yield* use(form.fields, form.file).pipe(
        Effect.mapError((error) =>
          error instanceof DocumentErrors.DocumentUnreadable && form.tooLarge()
            ? DocumentErrors.DocumentFileTooLarge.of(maxFileBytes)
            : error
        ),
        Effect.ensuring(form.drain)
      )
    })
  )

/**
 * Handlers of the documents group: check the permission (reads VIEW, writes MANAGE) before reading any of the body,
 * then stream the multipart form's file into `Documents` without holding it whole.
 */
export const layer: Layer.Layer<
  HttpApiGroup.ApiGroup<"payrail", "documents">,
  never,
  Documents.Documents | Authentication.Authentication
> = HttpApiBuilder.group(PayrailApi.PayrailApi, "documents", (handlers) =>
  Effect.gen(function* () {
    const documents = yield* Documents.Documents
    return handlers
      .handle("upload", ({ payload }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) =>
          withForm(payload, DocumentRequest.DocumentFields, (fields, file) =>
            documents.upload(caller.platform, fields, file)
          )
        )
      )
      .handle("list", ({ urlParams: { cursor, limit, ...filter } }) =>
        Effect.gen(function* () {
          const caller = yield* Caller.require("VIEW")
          return yield* documents.list(caller.platform, filter, yield* pageRequest(limit, cursor))
        })
      )
      .handle("get", ({ path }) =>
        Effect.flatMap(Caller.require("VIEW"), (caller) => documents.get(caller.platform, path.documentId))
      )
      .handle("replace", ({ path, payload }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) =>
          withForm(payload, DocumentRequest.ReplaceDocumentFields, (fields, file) =>
            documents.replace(caller.platform, path.documentId, fields, file)
          )
        )
      )
      .handle("delete", ({ path }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) => documents.delete(caller.platform, path.documentId))
      )
  })
)
