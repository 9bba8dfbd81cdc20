import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { DateTime, Effect, type Layer } from "effect"
import { Caller, Invitation, Invitations } from "@payrail/core"
import { type Authentication, PayrailApi } from "@payrail/api"

/** The invitation as the API shows it now (a pending one past its expiry reads `EXPIRED`). */
const viewNow = (invitation: Invitation.Invitation) =>
  Effect.map(DateTime.now, (now) => Invitation.view(invitation, now))

/** Handlers of UMA invitations: check the permission, call `Invitations`, answer the invitation's API form. */
export const layer: Layer.Layer<
  HttpApiGroup.ApiGroup<"payrail", "invitations">,
  never,
  Invitations.Invitations | Authentication.Authentication
> = HttpApiBuilder.group(PayrailApi.PayrailApi, "invitations", (handlers) =>
  Effect.gen(function* () {
    const invitations = yield* Invitations.Invitations
    return handlers
      .handle("create", ({ payload }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) =>
          Effect.flatMap(invitations.create(caller.platform, payload), viewNow)
        )
      )
      .handle("get", ({ path }) =>
        Effect.flatMap(Caller.require("VIEW"), (caller) =>
          Effect.flatMap(invitations.get(caller.platform, path.invitationCode), viewNow)
        )
      )
      .handle("claim", ({ path, payload }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) =>
          Effect.flatMap(invitations.claim(caller.platform, path.invitationCode, payload), viewNow)
        )
      )
      .handle("cancel", ({ path }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) =>
          Effect.flatMap(invitations.cancel(caller.platform, path.invitationCode), viewNow)
        )
      )
  })
)
