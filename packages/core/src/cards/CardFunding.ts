import { Effect, Option, Schema } from "effect"
import { InternalAccount, InternalAccountRepo } from "../accounts/index.js"
import type { StoreFailure } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import { FundingSourceIneligible } from "./CardErrors.js"

const decodeAccountId = Schema.decodeUnknownOption(InternalAccount.InternalAccountId)

/**
 * The internal account `accountId` if it can fund a card of `customerId`: an `ACTIVE` `INTERNAL_FIAT` account of
 * that customer, in `currency` when one is required (a change of funding source keeps the card's currency).
 * Embedded wallets need a delegated signing key, which this kit does not have yet: they are refused as
 * `currency_not_supported`.
 */
export const eligibleAccount = (
  platform: Platform.Platform,
  customerId: string,
  accountId: string,
  currency?: string
): Effect.Effect<
  InternalAccount.InternalAccount,
  FundingSourceIneligible | StoreFailure.StoreFailure,
  InternalAccountRepo.InternalAccountRepo
> =>
  Effect.gen(function* () {
    const id = decodeAccountId(accountId)
    if (Option.isNone(id)) return yield* FundingSourceIneligible.of(accountId, "not_found")
    const found = yield* (yield* InternalAccountRepo.InternalAccountRepo).findById(platform.id, id.value)
    if (Option.isNone(found)) return yield* FundingSourceIneligible.of(accountId, "not_found")
    const account = found.value
    if (account.customerId !== customerId) return yield* FundingSourceIneligible.of(accountId, "not_cardholders")
    if (account.status !== "ACTIVE") return yield* FundingSourceIneligible.of(accountId, "not_active")
    if (account.type !== "INTERNAL_FIAT" || (currency !== undefined && account.currency !== currency)) {
      return yield* FundingSourceIneligible.of(accountId, "currency_not_supported")
    }
    return account
  })
