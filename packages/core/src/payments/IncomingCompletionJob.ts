import { DateTime, Effect, Option, Schema } from "effect"
import { type Job, JobErrors } from "../events/index.js"
import { Ids, Outbox, PlatformId, UnitOfWork } from "../kernel/index.js"
import { Ledger } from "../ledger/index.js"
import * as IncomingTransaction from "./IncomingTransaction.js"
import { TransactionId } from "./Transaction.js"
import * as TransactionEvents from "./TransactionEvents.js"
import { TransactionRepo } from "./TransactionRepo.js"

/** The kind of the job that completes an incoming payment held `PENDING` (a long-pending sandbox UMA sender). */
export const kind = "payments.incoming-completion"

/** The completion of `transactionId` at `completesAt` (in the platform's time); one per transaction. */
export const newJob = (
  platformId: PlatformId.PlatformId,
  transactionId: TransactionId,
  completesAt: DateTime.Utc
): Job.NewJob => ({
  kind,
  payload: { transactionId, completesAt: DateTime.formatIso(completesAt) },
  platformId,
  dueAt: completesAt,
  deduplicationKey: transactionId
})

const decodePayload = Schema.decodeUnknownOption(
  Schema.Struct({ transactionId: TransactionId, completesAt: Schema.DateTimeUtc })
)

/**
 * Completes the incoming payment if it is still `PENDING`, in one unit of work: the transaction becomes `COMPLETED`
 * (compare-and-set), its pending posting is confirmed (the money becomes available to the receiver) and its
 * `INCOMING_PAYMENT` webhook is recorded. A transaction completed already, or not found, is left as it is: running
 * the job twice changes nothing more. Run before `completesAt` (by the platform's clock), it is retried then.
 */
export const run = (job: Job.Job) =>
  Effect.gen(function* () {
    const payload = decodePayload(job.payload)
    if (Option.isNone(payload) || job.platformId === undefined) {
      return yield* JobErrors.JobFailed.permanent("the job names no transaction")
    }
    const { transactionId, completesAt } = payload.value
    const platformId = job.platformId
    const transactions = yield* TransactionRepo
    const ledger = yield* Ledger.Ledger
    const outbox = yield* Outbox.Outbox
    yield* (yield* UnitOfWork.UnitOfWork).transaction(
      Effect.gen(function* () {
        const found = yield* transactions.findById(platformId, transactionId)
        if (Option.isNone(found) || found.value.transaction.status !== "PENDING") return
        const now = yield* DateTime.now
        if (DateTime.lessThan(now, completesAt)) return yield* JobErrors.JobFailed.retryAt("not due yet", completesAt)
        const next = IncomingTransaction.completed(found.value.transaction, now)
        if (!(yield* transactions.transition(platformId, next.id, "PENDING", { ...found.value, transaction: next }))) {
          return
        }
        if (Option.isSome(found.value.postingId)) {
          yield* ledger
            .confirm(platformId, Ledger.PostingId.make(found.value.postingId.value))
            .pipe(Effect.catchTag("ReservationSettled", (settled) => Effect.die(settled)))
        }
        yield* outbox.append(yield* TransactionEvents.of(platformId, next))
      })
    )
  }).pipe(
    Effect.catchTag("StoreFailure", () =>
      JobErrors.JobFailed.retry("the store failed while completing an incoming payment")
    )
  )

/** What the completion handler needs from its environment. */
export type Requirements = TransactionRepo | Ledger.Ledger | Outbox.Outbox | UnitOfWork.UnitOfWork | Ids.Ids
