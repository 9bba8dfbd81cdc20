import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Effect, type Layer, Option } from "effect"
import { Caller, type InternalAccountRepo, InternalAccounts, Page, SandboxFunding } from "@payrail/core"
import { type Authentication, PayrailApi } from "@payrail/api"
import { pageRequest } from "../internal/pageRequest.js"

/** Handlers of internal accounts: lists and reads with ledger balances, and sandbox funding. */
export const layer: Layer.Layer<
  HttpApiGroup.ApiGroup<"payrail", "internalAccounts">,
  never,
  InternalAccounts.InternalAccounts | SandboxFunding.SandboxFunding | Authentication.Authentication
> = HttpApiBuilder.group(PayrailApi.PayrailApi, "internalAccounts", (handlers) =>
  Effect.gen(function* () {
    const accounts = yield* InternalAccounts.InternalAccounts
    const funding = yield* SandboxFunding.SandboxFunding
    const listCustomers = ({
      urlParams: { cursor, limit, ...filter }
    }: {
      readonly urlParams: { readonly cursor?: string | undefined; readonly limit?: number | undefined } & Omit<
        InternalAccountRepo.InternalAccountFilter,
        "owner"
      >
    }) =>
      Effect.gen(function* () {
        const caller = yield* Caller.require("VIEW")
        return yield* accounts.list(
          caller.platform,
          { owner: "customers", ...filter },
          yield* pageRequest(limit, cursor)
        )
      })
    return handlers
      .handle("list", listCustomers)
      .handle("listForCustomers", listCustomers)
      .handle("get", ({ path }) =>
        Effect.flatMap(Caller.require("VIEW"), (caller) => accounts.get(caller.platform, path.accountId))
      )
      .handle("listForPlatform", ({ urlParams }) =>
        Effect.gen(function* () {
          const caller = yield* Caller.require("VIEW")
          const page = yield* accounts.list(
            caller.platform,
            { owner: "platform", ...urlParams },
            { limit: Page.maxLimit, after: Option.none() }
          )
          return { data: page.data }
        })
      )
      .handle("fund", ({ headers, path, payload }) =>
        Effect.flatMap(Caller.require("TRANSACT"), (caller) =>
          funding.fund(caller.platform, path.accountId, {
            amountMinor: BigInt(payload.amount),
            idempotencyKey: Option.fromNullable(headers["idempotency-key"])
          })
        )
      )
  })
)
