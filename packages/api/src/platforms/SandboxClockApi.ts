import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Errors, SandboxClock } from "@payrail/core"
import { ErrorBody, FieldErrorReport } from "../kernel/index.js"
import * as Authentication from "./Authentication.js"
import { PlatformNotFoundBody } from "./ConfigApi.js"

/** Body of `POST /sandbox/clock/advance`: how many seconds to move the clock forward. */
export const AdvanceClockRequest = FieldErrorReport.reportFieldErrors(
  Schema.Struct({ seconds: SandboxClock.AdvanceSeconds }).annotations({
    identifier: "AdvanceSandboxClockRequest",
    parseOptions: { onExcessProperty: "error" }
  })
)

/** 403 `FORBIDDEN` with `details.rule: "sandbox_platforms_only"`: production platforms keep real time. */
export const SandboxOnlyBody = ErrorBody.wire(
  Errors.SandboxOnly,
  403,
  "Only sandbox platforms have a clock of their own; production platforms keep real time"
)

/**
 * A sandbox platform's clock (Stripe's test clocks, for a whole platform): read it (VIEW) and move it forward
 * (MANAGE), so that everything waiting on time happens at once.
 */
export class SandboxClockApi extends HttpApiGroup.make("sandboxClock")
  .add(
    HttpApiEndpoint.get("get", "/sandbox/clock")
      .addSuccess(SandboxClock.SandboxClockView)
      .annotate(OpenApi.Summary, "Sandbox: the platform's current time")
  )
  .add(
    HttpApiEndpoint.post("advance", "/sandbox/clock/advance")
      .setPayload(AdvanceClockRequest)
      .addSuccess(SandboxClock.SandboxClockView)
      .annotate(OpenApi.Summary, "Sandbox: move the platform's clock forward")
      .annotate(
        OpenApi.Description,
        "Moves the platform's time `seconds` ahead (at most 366 days at once, and 100 years in total; it never moves back). Jobs due within the span run at once (webhook retries, and later quote expiries and the sandbox's delayed outcomes), and every request, job and webhook of the platform from now on carries the new time. Webhook signatures keep real time, so receivers verify them as usual."
      )
  )
  .addError(SandboxOnlyBody)
  .addError(PlatformNotFoundBody)
  .addError(Authentication.PermissionDeniedBody)
  .middleware(Authentication.Authentication)
  .annotate(OpenApi.Title, "Sandbox clock")
  .annotate(
    OpenApi.Description,
    "Each sandbox platform has a clock that can be moved forward, so delayed outcomes happen at once."
  ) {}
