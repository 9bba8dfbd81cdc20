import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Effect, type Layer, Option } from "effect"
import { BeneficiaryTrust, Caller, Errors, type ExternalAccount, ExternalAccounts } from "@payrail/core"
import { type Authentication, PayrailApi } from "@payrail/api"
import { pageRequest } from "../internal/pageRequest.js"

type Owner = "customers" | "platform"

const belongsTo = (account: ExternalAccount.ExternalAccount, owner: Owner) =>
  owner === "platform" ? account.customerId === undefined : account.customerId !== undefined

/** Handlers of external accounts. A customer's account is not found under the platform's paths, and vice versa. */
export const layer: Layer.Layer<
  HttpApiGroup.ApiGroup<"payrail", "externalAccounts">,
  never,
  ExternalAccounts.ExternalAccounts | BeneficiaryTrust.BeneficiaryTrust | Authentication.Authentication
> = HttpApiBuilder.group(PayrailApi.PayrailApi, "externalAccounts", (handlers) =>
  Effect.gen(function* () {
    const accounts = yield* ExternalAccounts.ExternalAccounts
    const trust = yield* BeneficiaryTrust.BeneficiaryTrust

    // Reads the account and checks it is of the path's owner kind, so ids never leak across the two families.
    const owned = (owner: Owner, permission: "VIEW" | "MANAGE", id: ExternalAccount.ExternalAccountId) =>
      Effect.gen(function* () {
        const caller = yield* Caller.require(permission)
        const account = yield* accounts.get(caller.platform, id)
        if (!belongsTo(account, owner)) {
          return yield* Effect.fail(Errors.ExternalAccountNotFound.of(id))
        }
        return { caller, account }
      })

    const forOwner = <const O extends Owner>(owner: O) => ({
      get: ({ path }: { readonly path: { readonly accountId: ExternalAccount.ExternalAccountId } }) =>
        Effect.map(owned(owner, "VIEW", path.accountId), ({ account }) => account),
      delete: ({ path }: { readonly path: { readonly accountId: ExternalAccount.ExternalAccountId } }) =>
        Effect.flatMap(owned(owner, "MANAGE", path.accountId), ({ caller }) =>
          accounts.delete(caller.platform, path.accountId)
        ),
      challenge: ({ path }: { readonly path: { readonly accountId: ExternalAccount.ExternalAccountId } }) =>
        Effect.flatMap(owned(owner, "MANAGE", path.accountId), ({ caller }) =>
          accounts.startOwnershipChallenge(caller.platform, path.accountId)
        ),
      verify: ({
        path,
        payload
      }: {
        readonly path: { readonly accountId: ExternalAccount.ExternalAccountId }
        readonly payload: { readonly signature: string; readonly signatureScheme?: "bip137" | "electrum" }
      }) =>
        Effect.flatMap(owned(owner, "MANAGE", path.accountId), ({ caller }) =>
          accounts.verifyOwnership(caller.platform, path.accountId, payload)
        )
    })
    const customers = forOwner("customers")
    const platform = forOwner("platform")

    return handlers
      .handle("createForCustomers", ({ payload: { customerId, ...request } }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) =>
          accounts.create(caller.platform, Option.fromNullable(customerId), request)
        )
      )
      .handle("listForCustomers", ({ urlParams: { cursor, limit, ...filter } }) =>
        Effect.gen(function* () {
          const caller = yield* Caller.require("VIEW")
          return yield* accounts.list(
            caller.platform,
            { owner: "customers", ...filter },
            yield* pageRequest(limit, cursor)
          )
        })
      )
      .handle("getForCustomers", customers.get)
      .handle("deleteForCustomers", ({ path }) =>
        Effect.flatMap(owned("customers", "MANAGE", path.accountId), ({ caller }) =>
          Effect.zipRight(
            // A trusted beneficiary is untrusted (with SCA) before it goes: 409 BENEFICIARY_TRUSTED.
            trust.ensureDeletable(caller.platform, path.accountId),
            accounts.delete(caller.platform, path.accountId)
          )
        )
      )
      .handle("challengeForCustomers", customers.challenge)
      .handle("verifyForCustomers", customers.verify)
      .handle("createForPlatform", ({ payload }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) => accounts.create(caller.platform, Option.none(), payload))
      )
      .handle("listForPlatform", ({ urlParams: { cursor, limit, ...filter } }) =>
        Effect.gen(function* () {
          const caller = yield* Caller.require("VIEW")
          return yield* accounts.list(
            caller.platform,
            { owner: "platform", ...filter },
            yield* pageRequest(limit, cursor)
          )
        })
      )
      .handle("getForPlatform", platform.get)
      .handle("deleteForPlatform", platform.delete)
      .handle("challengeForPlatform", platform.challenge)
      .handle("verifyForPlatform", platform.verify)
  })
)
