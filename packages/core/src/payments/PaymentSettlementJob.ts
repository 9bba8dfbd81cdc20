import { DateTime, Effect, Option, Schema } from "effect"
import { type ExternalAccount, ExternalAccountRepo } from "../accounts/index.js"
import { type Job, JobErrors, Jobs } from "../events/index.js"
import { Ids, Outbox, PlatformId, UnitOfWork } from "../kernel/index.js"
import { Ledger } from "../ledger/index.js"
import { destinationAccountId, entriesOf, isInternalAccountId, reversed } from "./PaymentPosting.js"
import { Quote, QuoteId } from "./Quote.js"
import { QuoteRepo } from "./QuoteRepo.js"
import * as QuoteState from "./QuoteState.js"
import * as TransactionState from "./TransactionState.js"
import * as Rails from "./Rails.js"
import { Transaction, TransactionId } from "./Transaction.js"
import * as TransactionEvents from "./TransactionEvents.js"
import { type StoredTransaction, TransactionRepo } from "./TransactionRepo.js"

/** The kind of the job that follows an executed payment on its rail until it settles. */
export const kind = "payments.settle"

/**
 * A check of the payment `transactionId` (executed at `startedAt`) due at `dueAt`, in the platform's time. Each check
 * has its own key, so a check scheduled by a running one is not swallowed by it.
 */
export const newJob = (
  platformId: PlatformId.PlatformId,
  transactionId: TransactionId,
  startedAt: DateTime.Utc,
  dueAt: DateTime.Utc,
  purpose: Rails.RailLeg["purpose"] = "QUOTE"
): Job.NewJob => ({
  kind,
  payload: { transactionId, startedAt: DateTime.formatIso(startedAt), purpose },
  platformId,
  dueAt,
  deduplicationKey: `${transactionId}@${DateTime.formatIso(dueAt)}`
})

const Payload = Schema.Struct({
  transactionId: TransactionId,
  startedAt: Schema.DateTimeUtc,
  purpose: Schema.optionalWith(Schema.Literal("QUOTE", "TRANSFER"), { default: () => "QUOTE" })
})
const decodePayload = Schema.decodeUnknownOption(Payload)

const found = <A>(option: Option.Option<A>, what: string) =>
  Option.match(option, {
    onNone: () => JobErrors.JobFailed.permanent(`${what} not found`),
    onSome: (value) => Effect.succeed(value)
  })

/**
 * Follows one executed payment: asks the rail (`Rails.status`) where its leg stands and applies the answer in one
 * unit of work with compare-and-set transitions, so a check run twice applies one outcome:
 * - pending: the next check is scheduled at the rail's `checkAt`;
 * - completed: the reservation is confirmed (posted), the transaction and its quote complete (a later check is
 *   scheduled when the rail may still report a return);
 * - failed: the reservation is released (no money moved); a user cancellation records a completed refund;
 * - returned: a completed payment came back: a new posting gives the source its money back, and the transaction
 *   and quote fail with `PAYOUT_RETURNED` and a completed refund;
 * - refund failed: the money left and did not come back: the posting stands (in rail clearing) and the refund is
 *   recorded as failed.
 * A payment between internal accounts crosses no rail and completes on its first check. Each change emits the
 * transaction's webhook.
 */
export const run = (job: Job.Job) =>
  Effect.gen(function* () {
    const payload = decodePayload(job.payload)
    if (Option.isNone(payload) || job.platformId === undefined) {
      return yield* JobErrors.JobFailed.permanent("the job names no payment")
    }
    const platformId = job.platformId
    const { purpose, startedAt, transactionId } = payload.value
    const transactions = yield* TransactionRepo
    const quotes = yield* QuoteRepo
    const stored = yield* found(yield* transactions.findById(platformId, transactionId), "transaction")
    if (stored.transaction.status !== "PROCESSING" && stored.transaction.status !== "COMPLETED") return
    const quoteId = Schema.decodeUnknownOption(QuoteId)(stored.transaction.quoteId)
    const quote = yield* found(
      yield* Effect.transposeMapOption(quoteId, (id) => quotes.findById(platformId, id)).pipe(
        Effect.map(Option.flatten)
      ),
      "quote"
    )
    const leg = yield* legOf(platformId, quote, stored.transaction, startedAt, purpose)
    const now = yield* DateTime.now
    const status = Option.isNone(leg)
      ? ({ _tag: "Completed" } as const)
      : yield* (yield* Rails.Rails).status(leg.value, now)
    yield* (yield* UnitOfWork.UnitOfWork).transaction(apply(platformId, stored, quote, status, startedAt, now, purpose))
  }).pipe(
    Effect.catchTags({
      StoreFailure: () => JobErrors.JobFailed.retry("the store failed while settling a payment"),
      ReservationSettled: () => Effect.void
    })
  )

// The rail leg of a payment: its payout to an external account or an UMA address of another domain, or its pull
// from an external account; none between internal accounts.
const legOf = (
  platformId: PlatformId.PlatformId,
  quote: Quote,
  transaction: Transaction,
  startedAt: DateTime.Utc,
  purpose: Rails.RailLeg["purpose"]
) =>
  Effect.gen(function* () {
    const accounts = yield* ExternalAccountRepo.ExternalAccountRepo
    const external = (id: string) =>
      Effect.flatMap(accounts.findById(platformId, id as ExternalAccount.ExternalAccountId), (account) =>
        found(account, "external account")
      )
    const common = { transactionId: transaction.id, startedAt }
    const destinationId = destinationAccountId(quote)
    if (quote.destination.destinationType === "UMA_ADDRESS" && destinationId === "") {
      return Option.some<Rails.RailLeg>({
        ...common,
        direction: "PAYOUT",
        purpose,
        counterparty: { _tag: "UmaAddress", umaAddress: quote.destination.umaAddress },
        currency: quote.receivingCurrency.code,
        amountMinor: BigInt(quote.totalReceivingAmount)
      })
    }
    if (destinationId !== "" && !isInternalAccountId(destinationId)) {
      const account = yield* external(destinationId)
      return Option.some<Rails.RailLeg>({
        ...common,
        direction: "PAYOUT",
        purpose,
        counterparty: { _tag: "ExternalAccount", account },
        currency: quote.receivingCurrency.code,
        amountMinor: BigInt(quote.totalReceivingAmount)
      })
    }
    if (quote.source.sourceType === "ACCOUNT" && !isInternalAccountId(quote.source.accountId)) {
      const account = yield* external(quote.source.accountId)
      return Option.some<Rails.RailLeg>({
        ...common,
        direction: "PULL",
        purpose: "TRANSFER",
        counterparty: { _tag: "ExternalAccount", account },
        currency: quote.sendingCurrency.code,
        amountMinor: BigInt(quote.totalSendingAmount)
      })
    }
    return Option.none<Rails.RailLeg>()
  })

const apply = (
  platformId: PlatformId.PlatformId,
  stored: StoredTransaction,
  quote: Quote,
  status: Rails.RailStatus,
  startedAt: DateTime.Utc,
  now: DateTime.Utc,
  purpose: Rails.RailLeg["purpose"]
) =>
  Effect.gen(function* () {
    const transactions = yield* TransactionRepo
    const quotes = yield* QuoteRepo
    const ledger = yield* Ledger.Ledger
    const outbox = yield* Outbox.Outbox
    const jobs = yield* Jobs.Jobs
    const { transaction } = stored
    const postingId = Option.map(stored.postingId, (id) => id as Ledger.PostingId)

    // Moves the transaction by `event` (compare-and-set on its status) with `fields`, and its quote by `quoteEvent`;
    // false when the table refuses it or another check won.
    const move = (
      event: TransactionState.TransactionEvent,
      fields: Partial<Transaction>,
      quoteEvent: QuoteState.QuoteEvent
    ) =>
      Effect.gen(function* () {
        const status = TransactionState.transitions[transaction.status][event]
        if (status === null) return false
        const next = new Transaction({ ...transaction, ...fields, status, updatedAt: now }, { disableValidation: true })
        if (
          !(yield* transactions.transition(platformId, transaction.id, transaction.status, {
            ...stored,
            transaction: next
          }))
        ) {
          return false
        }
        const quoteStatus = QuoteState.transitions[quote.status][quoteEvent]
        if (quoteStatus !== null) {
          yield* quotes.transition(
            platformId,
            quote.id,
            quote.status,
            new Quote({ ...quote, status: quoteStatus, updatedAt: now }, { disableValidation: true })
          )
        }
        yield* outbox.append(yield* TransactionEvents.of(platformId, next))
        return true
      })
    const refund = (state: "COMPLETED" | "FAILED", reason: "TRANSACTION_FAILED" | "USER_CANCELLATION") => ({
      reference: `Refund:${transaction.id}`,
      initiatedAt: now,
      status: state,
      reason,
      ...(state === "COMPLETED" ? { settledAt: now } : {})
    })
    const later = (at: DateTime.Utc) => jobs.enqueue(newJob(platformId, transaction.id, startedAt, at, purpose))

    switch (status._tag) {
      case "Pending":
        return yield* later(status.checkAt)
      case "Completed": {
        if (yield* move("COMPLETED", { settledAt: now }, "COMPLETE")) {
          yield* Effect.transposeMapOption(postingId, (id) => ledger.confirm(platformId, id))
          if (status.checkAgainAt !== undefined) yield* later(status.checkAgainAt)
        }
        return
      }
      case "Failed": {
        const fields = {
          failureReason: status.reason,
          ...(status.cancelledByUser ? { refund: refund("COMPLETED", "USER_CANCELLATION") } : {})
        }
        if (yield* move("FAILED", fields, "FAIL")) {
          yield* Effect.transposeMapOption(postingId, (id) => ledger.release(platformId, id))
        }
        return
      }
      case "Returned": {
        const fields = { failureReason: status.reason, refund: refund("COMPLETED", "TRANSACTION_FAILED") }
        // Delivered and returned before any check saw it delivered (the worker was down, or a sandbox clock passed
        // both): it fails from PROCESSING, and its reservation is confirmed first, since the money did leave.
        const unseen = transaction.status === "PROCESSING"
        if (yield* unseen ? move("FAILED", fields, "FAIL") : move("RETURNED", fields, "RETURN")) {
          if (unseen) yield* Effect.transposeMapOption(postingId, (id) => ledger.confirm(platformId, id))
          yield* ledger
            .post({
              platformId,
              idempotencyKey: `refund:${transaction.id}`,
              status: "posted",
              entries: reversed(entriesOf(platformId, quote)),
              description: `Refund of ${transaction.id}`
            })
            .pipe(
              Effect.catchTags({
                InsufficientFunds: Effect.die,
                InvalidPosting: Effect.die,
                IdempotencyKeyReused: Effect.die,
                BalanceLimitExceeded: Effect.die
              })
            )
        }
        return
      }
      case "RefundFailed": {
        const fields = { failureReason: status.reason, refund: refund("FAILED", "TRANSACTION_FAILED") }
        if (yield* move("FAILED", fields, "FAIL")) {
          yield* Effect.transposeMapOption(postingId, (id) => ledger.confirm(platformId, id))
        }
        return
      }
    }
  })

/** What the settlement handler needs from its environment. */
export type Requirements =
  | TransactionRepo
  | QuoteRepo
  | ExternalAccountRepo.ExternalAccountRepo
  | Rails.Rails
  | Ledger.Ledger
  | Outbox.Outbox
  | Jobs.Jobs
  | UnitOfWork.UnitOfWork
  | Ids.Ids
