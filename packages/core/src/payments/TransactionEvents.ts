import { Effect, Schema } from "effect"
import { DomainEvent, Ids } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import { Transaction } from "./Transaction.js"

/**
 * The payment webhooks: `INCOMING_PAYMENT` and `OUTGOING_PAYMENT`, by the transaction's `type`, on every status
 * change after creation (docs/payments.md). The type carries no status suffix, as our spec names them; the status
 * is `data.status`, and `data` is the whole transaction as `GET /transactions/{id}` shows it.
 */
export const TransactionEventType = Schema.Literal("INCOMING_PAYMENT", "OUTGOING_PAYMENT")
export type TransactionEventType = typeof TransactionEventType.Type

const encode = Schema.encodeSync(Transaction)

/** The event reporting `transaction` as it now is. */
export const of = (
  platformId: Platform.PlatformId,
  transaction: Transaction
): Effect.Effect<DomainEvent.DomainEvent, never, Ids.Ids> =>
  DomainEvent.make(
    platformId,
    transaction.type === "INCOMING" ? "INCOMING_PAYMENT" : "OUTGOING_PAYMENT",
    encode(transaction)
  )

/** `of`, with the `Ids` service given. */
export const withIds = (ids: Ids.Ids["Type"]) => (platformId: Platform.PlatformId, transaction: Transaction) =>
  Effect.provideService(of(platformId, transaction), Ids.Ids, ids)
