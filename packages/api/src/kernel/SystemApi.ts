import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { wire } from "./ErrorBody.js"

/** Liveness and readiness answer `{status: "ok"}`. */
export const Health = Schema.Struct({ status: Schema.Literal("ok") }).annotations({ identifier: "Health" })

/** The store cannot be reached. Code `SERVICE_UNAVAILABLE` (503). */
export class NotReady extends Schema.TaggedError<NotReady>()("NotReady", {
  code: Schema.Literal("SERVICE_UNAVAILABLE"),
  reason: Schema.String
}) {}

/** Liveness and readiness probes, outside the versioned base path and without credentials. */
export class SystemApi extends HttpApiGroup.make("system")
  .add(HttpApiEndpoint.get("health", "/health").addSuccess(Health).annotate(OpenApi.Summary, "Liveness"))
  .add(
    HttpApiEndpoint.get("ready", "/ready")
      .addSuccess(Health)
      .addError(wire(NotReady, 503, "The store does not answer"))
      .annotate(OpenApi.Summary, "Readiness: the store answers")
  )
  .annotate(OpenApi.Title, "System")
  .annotate(OpenApi.Description, "Liveness and readiness probes, without credentials.") {}
