import { Effect } from "effect"
import type { StoreFailure } from "../kernel/index.js"
import { Ledger, SystemAccounts } from "../ledger/index.js"
import type { Platform } from "../platforms/index.js"

/**
 * The ledger postings of card transactions (docs/card-transactions.md). Every movement is between the card's funding
 * account (a guarded internal account: its ledger account id is its id) and the platform's `RAIL_CLEARING` account
 * of the currency, the card network's counterpart. A `DEBIT` moves money from the funding account to the network, a
 * `CREDIT` from the network to the funding account.
 */

export type Direction = "DEBIT" | "CREDIT"

/** One movement of `amountMinor` (positive) in `direction`, under an idempotency key unique to the change. */
export interface Movement {
  readonly platformId: Platform.PlatformId
  readonly fundingAccountId: string
  readonly currency: string
  readonly direction: Direction
  readonly amountMinor: bigint
  readonly idempotencyKey: string
  readonly description: string
}

/** The two entries of a movement, summing to zero. */
export const entriesOf = (movement: Movement): ReadonlyArray<Ledger.Entry> => {
  const sign = movement.direction === "DEBIT" ? -1n : 1n
  return [
    { accountId: movement.fundingAccountId, currency: movement.currency, amountMinor: sign * movement.amountMinor },
    {
      accountId: SystemAccounts.accountId(movement.platformId, "RAIL_CLEARING", movement.currency),
      currency: movement.currency,
      amountMinor: -sign * movement.amountMinor
    }
  ]
}

// The keys are unique per change and the entries well-formed, so a replay or an invalid posting is a defect here.
const record = (movement: Movement, status: "posted" | "pending") =>
  Effect.flatMap(Ledger.Ledger, (ledger) =>
    ledger.post({
      platformId: movement.platformId,
      idempotencyKey: movement.idempotencyKey,
      status,
      entries: entriesOf(movement),
      description: movement.description
    })
  ).pipe(Effect.catchTags({ IdempotencyKeyReused: Effect.die, InvalidPosting: Effect.die }))

/**
 * A hold: a pending posting that takes a debit out of the funding account's available balance at once (or announces
 * a credit), fails `InsufficientFunds` when the available balance does not cover a debit, and applies nothing then.
 * Answers the posting's id, to `release` later.
 */
export const hold = (
  movement: Movement
): Effect.Effect<
  Ledger.PostingId,
  Ledger.InsufficientFunds | Ledger.BalanceLimitExceeded | StoreFailure.StoreFailure,
  Ledger.Ledger
> => Effect.map(record(movement, "pending"), (result) => result.postingId)

/** A settled movement (posted at once); a debit fails `InsufficientFunds` when the available balance is short. */
export const settle = (
  movement: Movement
): Effect.Effect<
  Ledger.PostingId,
  Ledger.InsufficientFunds | Ledger.BalanceLimitExceeded | StoreFailure.StoreFailure,
  Ledger.Ledger
> => Effect.map(record(movement, "posted"), (result) => result.postingId)

/**
 * Gives a hold back. `ReservationSettled` (already released or confirmed) means another change to the card
 * transaction won the race.
 */
export const release = (
  platformId: Platform.PlatformId,
  postingId: string
): Effect.Effect<void, Ledger.ReservationSettled | StoreFailure.StoreFailure, Ledger.Ledger> =>
  Effect.flatMap(Ledger.Ledger, (ledger) => ledger.release(platformId, Ledger.PostingId.make(postingId)))

/** The funding account's available balance (posted minus pending debits). */
export const available = (
  platformId: Platform.PlatformId,
  fundingAccountId: string
): Effect.Effect<bigint, StoreFailure.StoreFailure, Ledger.Ledger> =>
  Effect.flatMap(Ledger.Ledger, (ledger) => ledger.balance(platformId, fundingAccountId)).pipe(
    Effect.map(Ledger.available),
    Effect.catchTag("InvalidPosting", Effect.die)
  )
