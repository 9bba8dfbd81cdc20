import { DateTime, Effect, Option, Schema } from "effect"
import { type Job, JobErrors } from "../events/index.js"
import { type Ids, type Outbox, type PlatformId, UnitOfWork } from "../kernel/index.js"
import { CardTransaction, CardTransactionId } from "./CardTransaction.js"
import { CardTransactionRepo } from "./CardTransactionRepo.js"
import * as CardTransactionRecords from "./CardTransactionRecords.js"

/** The kind of the job that confirms a delayed pull (the sandbox's descriptor suffix `005`). */
export const kind = "cards.pull"

/** The confirmation of the pull of `cardTransactionId`, due at `dueAt` (the platform's time); one per row. */
export const newJob = (
  platformId: PlatformId.PlatformId,
  cardTransactionId: CardTransactionId,
  dueAt: DateTime.Utc
): Job.NewJob => ({
  kind,
  payload: { cardTransactionId },
  platformId,
  dueAt,
  deduplicationKey: cardTransactionId
})

const decodePayload = Schema.decodeUnknownOption(Schema.Struct({ cardTransactionId: CardTransactionId }))

/**
 * Confirms the row's pending pulls: `pullSummary.pendingCount` becomes 0, with a `CARD_TRANSACTION.<status>` event,
 * in one unit of work. The hold itself was placed by the authorization and is untouched. A row with no pending pull
 * (confirmed already, or unknown) is left as it is, so running the job twice changes nothing more; losing a race
 * with a clearing retries the job.
 */
export const run = (job: Job.Job) =>
  Effect.gen(function* () {
    const payload = decodePayload(job.payload)
    if (Option.isNone(payload) || job.platformId === undefined) {
      return yield* JobErrors.JobFailed.permanent("the job names no card transaction")
    }
    const platformId = job.platformId
    const rows = yield* CardTransactionRepo
    yield* (yield* UnitOfWork.UnitOfWork).transaction(
      Effect.gen(function* () {
        const found = yield* rows.findById(platformId, payload.value.cardTransactionId)
        if (Option.isNone(found) || found.value.transaction.pullSummary.pendingCount === 0) return
        const current = found.value
        const now = yield* DateTime.now
        const transaction = new CardTransaction(
          {
            ...current.transaction,
            pullSummary: { ...current.transaction.pullSummary, pendingCount: 0 },
            lastEventAt: now,
            updatedAt: now
          },
          { disableValidation: true }
        )
        yield* CardTransactionRecords.update(platformId, current, transaction, current)
      })
    )
  }).pipe(
    Effect.catchTags({
      CardConflict: () => JobErrors.JobFailed.retry("the card transaction changed while its pull was confirmed"),
      StoreFailure: () => JobErrors.JobFailed.retry("the store failed while confirming a card pull")
    })
  )

/** What the pull handler needs from its environment. */
export type Requirements = CardTransactionRepo | Outbox.Outbox | UnitOfWork.UnitOfWork | Ids.Ids
