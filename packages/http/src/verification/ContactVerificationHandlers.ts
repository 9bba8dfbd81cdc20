import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Effect, type Layer } from "effect"
import { Caller, ContactVerifications } from "@payrail/core"
import { type Authentication, PayrailApi } from "@payrail/api"

/** Handlers of the contact verification group: check the permission, call the use case, return its result. */
export const layer: Layer.Layer<
  HttpApiGroup.ApiGroup<"payrail", "contactVerification">,
  never,
  ContactVerifications.ContactVerifications | Authentication.Authentication
> = HttpApiBuilder.group(PayrailApi.PayrailApi, "contactVerification", (handlers) =>
  Effect.gen(function* () {
    const contacts = yield* ContactVerifications.ContactVerifications
    return handlers
      .handle("sendEmail", ({ path }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) => contacts.send(caller.platform, path.customerId, "email"))
      )
      .handle("confirmEmail", ({ path, payload }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) =>
          contacts.confirm(caller.platform, path.customerId, "email", payload.code)
        )
      )
      .handle("sendPhone", ({ path }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) => contacts.send(caller.platform, path.customerId, "phone"))
      )
      .handle("confirmPhone", ({ path, payload }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) =>
          contacts.confirm(caller.platform, path.customerId, "phone", payload.code)
        )
      )
  })
)
