import { Context, DateTime, Effect, Layer, Option, Schema } from "effect"
import { AccountErrors, type InternalAccount, InternalAccountRepo, InternalAccounts } from "../accounts/index.js"
import { type InvalidInput, type StoreFailure, UnitOfWork } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import { isRetry, type RetryRefused, SignedRetry, type WalletHeaders } from "./SignedRetry.js"
import * as WalletAccounts from "./WalletAccounts.js"
import * as WalletStep from "./WalletStep.js"

/** Body of `PATCH /internal-accounts/{id}`: the wallet's privacy flag, and nothing else. */
export const UpdateWalletRequest = Schema.Struct({ privateEnabled: Schema.Boolean }).annotations({
  identifier: "UpdateInternalAccountRequest",
  parseOptions: { errors: "all", onExcessProperty: "error" }
})
export type UpdateWalletRequest = typeof UpdateWalletRequest.Type

type Failure =
  RetryRefused | InvalidInput.InvalidInput | AccountErrors.InternalAccountNotFound | StoreFailure.StoreFailure

/**
 * An embedded wallet's privacy setting, changed only through the signed retry: the first leg answers a challenge
 * (operation `UPDATE_WALLET`), the retry (stamped by an active session of the wallet, with the same body) sets
 * `privateEnabled` and consumes its request in one unit of work, and answers the account as `GET` shows it.
 * Another account type is refused with 400 on either leg.
 */
export class WalletPrivacy extends Context.Tag("@payrail/core/WalletPrivacy")<
  WalletPrivacy,
  {
    readonly update: (
      platform: Platform.Platform,
      accountId: InternalAccount.InternalAccountId,
      request: UpdateWalletRequest,
      headers: WalletHeaders
    ) => Effect.Effect<WalletStep.WalletStep<InternalAccount.InternalAccountView>, Failure>
  }
>() {}

export const layer = Layer.effect(
  WalletPrivacy,
  Effect.gen(function* () {
    const repo = yield* InternalAccountRepo.InternalAccountRepo
    const accounts = yield* InternalAccounts.InternalAccounts
    const retry = yield* SignedRetry
    const unitOfWork = yield* UnitOfWork.UnitOfWork

    const update = Effect.fn("WalletPrivacy.update")(function* (
      platform: Platform.Platform,
      accountId: InternalAccount.InternalAccountId,
      request: UpdateWalletRequest,
      headers: WalletHeaders
    ) {
      const account = yield* WalletAccounts.find(repo, platform.id, accountId, "id")
      const action = { accountId: account.id, operation: "UPDATE_WALLET", targetId: account.id, body: request } as const
      if (!isRetry(headers)) return WalletStep.Challenge({ request: yield* retry.issue(platform.id, action) })
      const authorized = yield* retry.authorize(platform.id, action, headers)
      yield* unitOfWork.transaction(
        Effect.gen(function* () {
          yield* retry.consume(platform.id, authorized.request)
          const updated = yield* repo.setPrivateEnabled(
            platform.id,
            account.id,
            request.privateEnabled,
            yield* DateTime.now
          )
          if (Option.isNone(updated)) return yield* AccountErrors.InternalAccountNotFound.of(account.id)
        })
      )
      return WalletStep.Done({ value: yield* accounts.get(platform, account.id) })
    })

    return WalletPrivacy.of({ update })
  })
)
