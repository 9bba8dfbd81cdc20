import { DateTime, Effect, Option, Schema } from "effect"
import { type Job, JobErrors } from "../events/index.js"
import { Ids, Outbox, PlatformId, UnitOfWork } from "../kernel/index.js"
import { Quote, QuoteId } from "./Quote.js"
import { QuoteRepo } from "./QuoteRepo.js"
import { Transaction } from "./Transaction.js"
import * as TransactionEvents from "./TransactionEvents.js"
import { TransactionRepo } from "./TransactionRepo.js"

/** The kind of the job that expires a quote at its `expiresAt`. */
export const kind = "payments.quote-expiry"

/** The expiry of `quoteId`, due at its `expiresAt` (in the platform's time); one per quote. */
export const newJob = (platformId: PlatformId.PlatformId, quoteId: QuoteId, expiresAt: DateTime.Utc): Job.NewJob => ({
  kind,
  payload: { quoteId },
  platformId,
  dueAt: expiresAt,
  deduplicationKey: quoteId
})

const decodeQuoteId = Schema.decodeUnknownOption(QuoteId)

/**
 * Expires the quote if it still waits (`PENDING`; one in `PENDING_AUTHORIZATION` ends with its SCA challenge instead,
 * see `ScaChallengeExpiryJob`), with its transaction (`EXPIRED`,
 * `failureReason: QUOTE_EXPIRED`) and the transaction's webhook, in one unit of work. An executed quote, or one
 * expired already, is left as it is: running the job twice changes nothing more.
 */
export const run = (job: Job.Job) =>
  Effect.gen(function* () {
    const quoteId = decodeQuoteId(job.payload["quoteId"])
    if (Option.isNone(quoteId) || job.platformId === undefined) {
      return yield* JobErrors.JobFailed.permanent("the job names no quote")
    }
    const platformId = job.platformId
    const quotes = yield* QuoteRepo
    const transactions = yield* TransactionRepo
    const outbox = yield* Outbox.Outbox
    yield* (yield* UnitOfWork.UnitOfWork).transaction(
      Effect.gen(function* () {
        const found = yield* quotes.findById(platformId, quoteId.value)
        if (Option.isNone(found)) return
        const quote = found.value
        // A quote waiting for strong customer authentication ends with its challenge (`SCA_NOT_COMPLETED`).
        if (quote.status !== "PENDING") return
        const now = yield* DateTime.now
        if (DateTime.lessThan(now, quote.expiresAt))
          return yield* JobErrors.JobFailed.retryAt("not due yet", quote.expiresAt)
        const expired = new Quote({ ...quote, status: "EXPIRED", updatedAt: now }, { disableValidation: true })
        if (!(yield* quotes.transition(platformId, quote.id, quote.status, expired))) return
        const stored = yield* transactions.findById(platformId, quote.transactionId)
        if (Option.isNone(stored)) return
        const { transaction } = stored.value
        if (transaction.status !== "PENDING" && transaction.status !== "PENDING_AUTHORIZATION") return
        const next = new Transaction(
          { ...transaction, status: "EXPIRED", failureReason: "QUOTE_EXPIRED", updatedAt: now },
          { disableValidation: true }
        )
        if (
          yield* transactions.transition(platformId, transaction.id, transaction.status, {
            ...stored.value,
            transaction: next
          })
        ) {
          yield* outbox.append(yield* TransactionEvents.of(platformId, next))
        }
      })
    )
  }).pipe(Effect.catchTag("StoreFailure", () => JobErrors.JobFailed.retry("the store failed while expiring a quote")))

/** What the expiry handler needs from its environment. */
export type Requirements = QuoteRepo | TransactionRepo | Outbox.Outbox | UnitOfWork.UnitOfWork | Ids.Ids
