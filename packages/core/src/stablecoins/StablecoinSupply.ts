import { Effect, Either } from "effect"
import { Currency, type StoreFailure } from "../kernel/index.js"
import { Ledger, SystemAccounts } from "../ledger/index.js"
import type { Platform } from "../platforms/index.js"
import type { Stablecoin } from "./Stablecoin.js"
import { AmountNotRepresentable } from "./StablecoinErrors.js"
import type { OperationType } from "./StablecoinOperation.js"

/**
 * The ledger side of issuance (docs/stablecoins.md). Each stablecoin has a guarded ledger account named by its id,
 * in its base currency: its outstanding supply (what was minted and not burned), valued in whole minor units of the
 * base currency. A completed mint credits it and debits the platform's `RAIL_CLEARING` account of the base currency
 * (the fiat that came in through the provider); a completed burn does the reverse, and can never take the supply
 * below zero, under any concurrency (`InsufficientFunds`).
 */

/** The stablecoin's supply account and its counterpart, to open (idempotently) when it is registered. */
export const accounts = (
  platformId: Platform.PlatformId,
  stablecoin: Stablecoin
): ReadonlyArray<Ledger.LedgerAccount> => [
  SystemAccounts.guardedAccount(platformId, stablecoin.id, stablecoin.baseCurrency),
  SystemAccounts.account(platformId, "RAIL_CLEARING", stablecoin.baseCurrency)
]

/**
 * `amount` (in the stablecoin's smallest unit) in minor units of the base currency, or why it cannot be: zero, not
 * a whole minor unit, or beyond `Ledger.balanceMinorMax`.
 */
export const baseMinor = (amount: string, stablecoin: Stablecoin): Either.Either<bigint, AmountNotRepresentable> => {
  const units = BigInt(amount)
  const refuse = (rule: "zero" | "not_whole_base_unit" | "too_large") =>
    Either.left(AmountNotRepresentable.of(units.toString(), stablecoin.decimals, stablecoin.baseCurrency, rule))
  if (units === 0n) return refuse("zero")
  const baseDecimals = Currency.registry.get(stablecoin.baseCurrency)?.decimals ?? 2
  const shift = stablecoin.decimals - baseDecimals
  const scale = 10n ** BigInt(Math.abs(shift))
  if (shift > 0 && units % scale !== 0n) return refuse("not_whole_base_unit")
  const minor = shift >= 0 ? units / scale : units * scale
  return minor > Ledger.balanceMinorMax ? refuse("too_large") : Either.right(minor)
}

/** The supply account's balance in base-currency minor units (posted). */
export const supply = (
  platformId: Platform.PlatformId,
  stablecoin: Stablecoin
): Effect.Effect<bigint, StoreFailure.StoreFailure, Ledger.Ledger> =>
  Effect.flatMap(Ledger.Ledger, (ledger) => ledger.balance(platformId, stablecoin.id)).pipe(
    Effect.map(Ledger.available),
    Effect.catchTag("InvalidPosting", Effect.die)
  )

/**
 * Posts a completed operation: one settled posting under a key unique to the operation. A burn beyond the supply
 * fails `InsufficientFunds` and applies nothing.
 */
export const post = (
  platformId: Platform.PlatformId,
  stablecoin: Stablecoin,
  operationId: string,
  operationType: OperationType,
  minor: bigint
): Effect.Effect<
  Ledger.PostingId,
  Ledger.InsufficientFunds | Ledger.BalanceLimitExceeded | StoreFailure.StoreFailure,
  Ledger.Ledger
> => {
  const sign = operationType === "MINT" ? 1n : -1n
  const currency = stablecoin.baseCurrency
  return Effect.flatMap(Ledger.Ledger, (ledger) =>
    ledger.post({
      platformId,
      idempotencyKey: `stablecoin-operation:${operationId}`,
      status: "posted",
      entries: [
        { accountId: stablecoin.id, currency, amountMinor: sign * minor },
        {
          accountId: SystemAccounts.accountId(platformId, "RAIL_CLEARING", currency),
          currency,
          amountMinor: -sign * minor
        }
      ],
      description: `Stablecoin ${operationType === "MINT" ? "mint" : "burn"} ${operationId}`
    })
  ).pipe(
    Effect.map((result) => result.postingId),
    // The key is new per operation and the entries well-formed: a replay or an invalid posting is a defect here.
    Effect.catchTags({ IdempotencyKeyReused: Effect.die, InvalidPosting: Effect.die })
  )
}

/**
 * Reverses the debit of a burn the provider took `PENDING` and then failed: one settled posting crediting the supply
 * back (and debiting `RAIL_CLEARING`), under a key of its own per operation, so it applies at most once and the
 * burn's own posting stays as it was (entries are immutable; a correction is a new posting).
 */
export const reverseBurn = (
  platformId: Platform.PlatformId,
  stablecoin: Stablecoin,
  operationId: string,
  minor: bigint
): Effect.Effect<Ledger.PostingId, Ledger.BalanceLimitExceeded | StoreFailure.StoreFailure, Ledger.Ledger> => {
  const currency = stablecoin.baseCurrency
  return Effect.flatMap(Ledger.Ledger, (ledger) =>
    ledger.post({
      platformId,
      idempotencyKey: `stablecoin-operation:${operationId}:reversal`,
      status: "posted",
      entries: [
        { accountId: stablecoin.id, currency, amountMinor: minor },
        { accountId: SystemAccounts.accountId(platformId, "RAIL_CLEARING", currency), currency, amountMinor: -minor }
      ],
      description: `Stablecoin burn ${operationId} reversed: the provider failed it`
    })
  ).pipe(
    Effect.map((result) => result.postingId),
    // Crediting the supply cannot overdraw it; the key is new per operation and the entries well-formed.
    Effect.catchTags({ InsufficientFunds: Effect.die, IdempotencyKeyReused: Effect.die, InvalidPosting: Effect.die })
  )
}
