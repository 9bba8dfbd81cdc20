import { DateTime, Effect, Option } from "effect"
import { type Job, JobErrors } from "../events/index.js"
import { type Ids, Outbox, type PlatformId, UnitOfWork } from "../kernel/index.js"
import { Quote, QuoteRepo, Transaction, TransactionEvents, TransactionRepo } from "../payments/index.js"
import { ScaRepo } from "./ScaRepo.js"

/** The kind of the job that ends a quote's SCA challenge at its `expiresAt`. */
export const kind = "sca.challenge-expiry"

/** The end of challenge `challengeId`, due at its `expiresAt`; one per challenge. */
export const newJob = (
  platformId: PlatformId.PlatformId,
  challengeId: string,
  expiresAt: DateTime.Utc
): Job.NewJob => ({
  kind,
  payload: { challengeId },
  platformId,
  dueAt: expiresAt,
  deduplicationKey: challengeId
})

/**
 * Ends a challenge that was not satisfied in time: a quote still `PENDING_AUTHORIZATION` on it fails, with its
 * transaction (`FAILED`, `failureReason: SCA_NOT_COMPLETED`) and the transaction's webhook, and the challenge is
 * removed, in one unit of work. A challenge already satisfied (gone) changes nothing: running the job twice is safe.
 */
export const run = (job: Job.Job) =>
  Effect.gen(function* () {
    const challengeId = job.payload["challengeId"]
    if (typeof challengeId !== "string" || job.platformId === undefined) {
      return yield* JobErrors.JobFailed.permanent("the job names no challenge")
    }
    const platformId = job.platformId
    const repo = yield* ScaRepo
    const quotes = yield* QuoteRepo.QuoteRepo
    const transactions = yield* TransactionRepo.TransactionRepo
    const outbox = yield* Outbox.Outbox
    yield* (yield* UnitOfWork.UnitOfWork).transaction(
      Effect.gen(function* () {
        const found = yield* repo.findChallenge(platformId, challengeId)
        if (Option.isNone(found)) return
        const challenge = found.value
        const now = yield* DateTime.now
        if (DateTime.lessThan(now, challenge.expiresAt)) {
          return yield* JobErrors.JobFailed.retryAt("not due yet", challenge.expiresAt)
        }
        yield* repo.takeChallenge(platformId, challenge.id)
        if (challenge.purpose !== "QUOTE") return
        const quote = yield* quotes.findById(platformId, Quote.QuoteId.make(challenge.subjectId))
        if (Option.isNone(quote) || quote.value.status !== "PENDING_AUTHORIZATION") return
        if (quote.value.scaChallenge?.id !== challenge.id) return
        const failed = new Quote.Quote(
          { ...quote.value, status: "FAILED", updatedAt: now, scaChallenge: undefined },
          { disableValidation: true }
        )
        if (!(yield* quotes.transition(platformId, quote.value.id, "PENDING_AUTHORIZATION", failed))) return
        const stored = yield* transactions.findById(platformId, quote.value.transactionId)
        if (Option.isNone(stored) || stored.value.transaction.status !== "PENDING_AUTHORIZATION") return
        const next = new Transaction.Transaction(
          { ...stored.value.transaction, status: "FAILED", failureReason: "SCA_NOT_COMPLETED", updatedAt: now },
          { disableValidation: true }
        )
        if (
          yield* transactions.transition(platformId, next.id, "PENDING_AUTHORIZATION", {
            ...stored.value,
            transaction: next
          })
        ) {
          yield* outbox.append(yield* TransactionEvents.of(platformId, next))
        }
      })
    )
  }).pipe(Effect.catchTag("StoreFailure", () => JobErrors.JobFailed.retry("the store failed while ending a challenge")))

/** What the expiry handler needs from its environment. */
export type Requirements =
  ScaRepo | QuoteRepo.QuoteRepo | TransactionRepo.TransactionRepo | Outbox.Outbox | UnitOfWork.UnitOfWork | Ids.Ids
