import { type Context, Effect, Option } from "effect"
import { AccountErrors, type InternalAccount, InternalAccountRepo } from "../accounts/index.js"
import { InvalidInput } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"

/**
 * The embedded wallet `accountId` names on the platform: 404 when the platform has no such account, 400 (naming
 * `field`) when it is not an `EMBEDDED_WALLET`.
 */
export const find = Effect.fn("WalletAccounts.find")(function* (
  repo: Context.Tag.Service<InternalAccountRepo.InternalAccountRepo>,
  platformId: Platform.PlatformId,
  accountId: InternalAccount.InternalAccountId,
  field: string
) {
  const found = yield* repo.findById(platformId, accountId)
  if (Option.isNone(found)) return yield* AccountErrors.InternalAccountNotFound.of(accountId)
  if (found.value.type !== "EMBEDDED_WALLET") {
    return yield* InvalidInput.InvalidInput.onField(field, "must be an EMBEDDED_WALLET internal account")
  }
  return found.value
})
