import { Context, DateTime, Effect, Layer, Option, Schema } from "effect"
import { Ids, Outbox, type StoreFailure, UnitOfWork } from "../kernel/index.js"
import { Ledger } from "../ledger/index.js"
import type { Platform } from "../platforms/index.js"
import { TransactionNotCancellable } from "./IncomingErrors.js"
import { TransactionNotFound } from "./PaymentErrors.js"
import { Quote, QuoteId } from "./Quote.js"
import { QuoteRepo } from "./QuoteRepo.js"
import * as QuoteState from "./QuoteState.js"
import { Transaction, type TransactionId } from "./Transaction.js"
import * as TransactionEvents from "./TransactionEvents.js"
import { TransactionRepo } from "./TransactionRepo.js"

/** The rails whose transfers can be withdrawn before they settle: ACH (push and pull); wires and instant rails cannot. */
export const cancellableRails: ReadonlySet<string> = new Set(["ACH"])

/**
 * `POST /transactions/{id}/cancel` (docs/incoming-approvals.md, "Cancelling a bank transfer"): an ACH transfer (an
 * outgoing push, or a pull from an external account) still `PROCESSING` (submitted, not settled) is withdrawn in one
 * unit of work: it becomes `FAILED` with a completed refund of reason `USER_CANCELLATION`, its reservation is
 * released (the money never left), its quote fails and its webhook is recorded; the caller's `reason`, if any, is
 * kept on the transaction as `cancellationReason` (and so is in the webhook). The settlement check that follows
 * finds it final and changes nothing. Anything else is refused with `TRANSACTION_NOT_CANCELLABLE`; of concurrent
 * cancels and settlements exactly one applies (compare-and-set on the status).
 */
export class TransactionCancels extends Context.Tag("@payrail/core/TransactionCancels")<
  TransactionCancels,
  {
    readonly cancel: (
      platform: Platform.Platform,
      id: TransactionId,
      reason: Option.Option<string>
    ) => Effect.Effect<Transaction, TransactionNotFound | TransactionNotCancellable | StoreFailure.StoreFailure>
  }
>() {}

const decodeQuoteId = Schema.decodeUnknownOption(QuoteId)

export const layer = Layer.effect(
  TransactionCancels,
  Effect.gen(function* () {
    const transactions = yield* TransactionRepo
    const quotes = yield* QuoteRepo
    const ledger = yield* Ledger.Ledger
    const outbox = yield* Outbox.Outbox
    const store = yield* UnitOfWork.UnitOfWork
    const ids = yield* Ids.Ids

    const cancel = Effect.fn("TransactionCancels.cancel")(function* (
      platform: Platform.Platform,
      id: TransactionId,
      reason: Option.Option<string>
    ) {
      return yield* store.transaction(
        Effect.gen(function* () {
          const found = yield* transactions.findById(platform.id, id)
          if (Option.isNone(found)) return yield* TransactionNotFound.of(id)
          const stored = found.value
          const { transaction } = stored
          const refuse = (rule: TransactionNotCancellable["details"]["rule"]) =>
            TransactionNotCancellable.of(id, transaction.status, transaction.paymentRail, rule)
          const pull = transaction.type === "INCOMING" && transaction.direction === "DEBIT"
          if (transaction.type !== "OUTGOING" && !pull) return yield* refuse("not_outgoing")
          if (transaction.paymentRail === undefined || !cancellableRails.has(transaction.paymentRail)) {
            return yield* refuse("rail_not_cancellable")
          }
          if (transaction.status !== "PROCESSING") return yield* refuse("already_sent")
          const now = yield* DateTime.now
          const next = new Transaction(
            {
              ...transaction,
              status: "FAILED",
              refund: {
                reference: `Refund:${transaction.id}`,
                initiatedAt: now,
                settledAt: now,
                status: "COMPLETED",
                reason: "USER_CANCELLATION"
              },
              ...Option.match(reason, { onNone: () => ({}), onSome: (given) => ({ cancellationReason: given }) }),
              updatedAt: now
            },
            { disableValidation: true }
          )
          if (!(yield* transactions.transition(platform.id, id, "PROCESSING", { ...stored, transaction: next }))) {
            return yield* refuse("already_sent")
          }
          yield* Effect.transposeMapOption(stored.postingId, (postingId) =>
            ledger.release(platform.id, Ledger.PostingId.make(postingId))
          ).pipe(Effect.catchTag("ReservationSettled", Effect.die))
          const quote = yield* Effect.transposeMapOption(decodeQuoteId(transaction.quoteId), (quoteId) =>
            quotes.findById(platform.id, quoteId)
          ).pipe(Effect.map(Option.flatten))
          if (Option.isSome(quote)) {
            const status = QuoteState.transitions[quote.value.status]["FAIL"]
            if (status !== null) {
              yield* quotes.transition(
                platform.id,
                quote.value.id,
                quote.value.status,
                new Quote({ ...quote.value, status, updatedAt: now }, { disableValidation: true })
              )
            }
          }
          yield* outbox.append(yield* TransactionEvents.withIds(ids)(platform.id, next))
          return next
        })
      )
    })

    return TransactionCancels.of({ cancel })
  })
)
