import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Effect, type Layer, Option } from "effect"
import { AgentActions, Caller, IncomingApprovals } from "@payrail/core"
import { type Authentication, PayrailApi } from "@payrail/api"
import { pageRequest } from "../internal/pageRequest.js"

/** Handlers of the platform's agent approvals: VIEW lists, TRANSACT approves and rejects. */
export const layer: Layer.Layer<
  HttpApiGroup.ApiGroup<"payrail", "agentApprovals">,
  never,
  AgentActions.AgentActions | IncomingApprovals.IncomingApprovals | Authentication.Authentication
> = HttpApiBuilder.group(PayrailApi.PayrailApi, "agentApprovals", (handlers) =>
  Effect.gen(function* () {
    const actions = yield* AgentActions.AgentActions
    const incoming = yield* IncomingApprovals.IncomingApprovals
    return (
      handlers
        .handle(
          "list",
          ({ urlParams: { agentId, customerId, cursor, endDate, limit, sortOrder, startDate, status } }) =>
            Effect.gen(function* () {
              const caller = yield* Caller.require("VIEW")
              return yield* actions.listApprovals(
                caller.platform,
                {
                  ...(agentId === undefined ? {} : { agentId }),
                  ...(customerId === undefined ? {} : { customerId }),
                  ...(status === undefined ? {} : { status }),
                  ...(startDate === undefined ? {} : { createdAfter: startDate }),
                  ...(endDate === undefined ? {} : { createdBefore: endDate })
                },
                yield* pageRequest(limit, cursor),
                sortOrder ?? "desc"
              )
            })
        )
        .handle("approve", ({ path }) =>
          Effect.flatMap(Caller.require("TRANSACT"), (caller) =>
            actions.approve(caller.platform, path.agentId, path.actionId)
          )
        )
        .handle("reject", ({ path, payload }) =>
          Effect.flatMap(Caller.require("TRANSACT"), (caller) =>
            actions.reject(caller.platform, path.agentId, path.actionId, payload.reason)
          )
        )
        // A held incoming payment (the reference's meaning) is approved; any other transaction is an agent's.
        .handle("approveTransaction", ({ path, payload }) =>
          Effect.flatMap(Caller.require("TRANSACT"), (caller) =>
            Effect.flatMap(incoming.approve(caller.platform, path.transactionId, payload), (approved) =>
              Option.match(approved, {
                onSome: Effect.succeed,
                onNone: () => actions.approveTransaction(caller.platform, path.transactionId)
              })
            )
          )
        )
    )
  })
)
