import { Effect, Option } from "effect"
import { type InternalAccount, InternalAccountRepo } from "../accounts/index.js"
import type { Customer } from "../customers/index.js"
import { FieldError, InvalidInput, type StoreFailure } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import type { AccountRestrictions } from "./AgentPolicy.js"

const message = "must be an internal account of the agent's customer"

/**
 * Checks that every account a policy's `accountRestrictions` names (`allowedAccountIds` and each rule's
 * `accountId`) is an internal account of `customerId` on the platform. Fails `INVALID_INPUT` naming each offending
 * entry by its dot path under `at` (e.g. `policy.accountRestrictions.allowedAccountIds.0`).
 */
export const check = (
  platformId: Platform.PlatformId,
  customerId: Customer.CustomerId,
  restrictions: AccountRestrictions | undefined,
  at: string
): Effect.Effect<
  void,
  InvalidInput.InvalidInput | StoreFailure.StoreFailure,
  InternalAccountRepo.InternalAccountRepo
> =>
  Effect.gen(function* () {
    if (restrictions === undefined) return
    const repo = yield* InternalAccountRepo.InternalAccountRepo
    const named: ReadonlyArray<readonly [string, InternalAccount.InternalAccountId]> = [
      ...(restrictions.allowedAccountIds ?? []).map((id, index) => [`${at}.allowedAccountIds.${index}`, id] as const),
      ...(restrictions.accountRules ?? []).map(
        (rule, index) => [`${at}.accountRules.${index}.accountId`, rule.accountId] as const
      )
    ]
    const owners = new Map<string, boolean>()
    const errors: Array<FieldError.FieldError> = []
    for (const [field, id] of named) {
      let owned = owners.get(id)
      if (owned === undefined) {
        const found = yield* repo.findById(platformId, id)
        owned = Option.isSome(found) && found.value.customerId === customerId
        owners.set(id, owned)
      }
      if (!owned) errors.push(new FieldError.FieldError({ field, message }))
    }
    if (errors.length > 0) return yield* InvalidInput.InvalidInput.withErrors(errors)
  })
