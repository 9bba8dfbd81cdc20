import { DateTime, Effect, Option, Schema } from "effect"
import { type Job, JobErrors } from "../events/index.js"
import { type Ids, Outbox, type PlatformId, UnitOfWork } from "../kernel/index.js"
import { Card, CardId } from "./Card.js"
import * as CardEvents from "./CardEvents.js"
import { CardRepo } from "./CardRepo.js"
import * as CardState from "./CardState.js"

/** The kind of the job that completes a card's provisioning with the issuer. */
export const kind = "cards.provisioning"

/** What provisioning ends in: the card becomes `ACTIVE`, or the issuer refuses it (`CLOSED`, `ISSUER_REJECTED`). */
export const Outcome = Schema.Literal("ACTIVATE", "REJECT")
export type Outcome = typeof Outcome.Type

/** The provisioning of `cardId`, due at `dueAt` (the platform's time); one per card. */
export const newJob = (
  platformId: PlatformId.PlatformId,
  cardId: CardId,
  outcome: Outcome,
  dueAt: DateTime.Utc
): Job.NewJob => ({
  kind,
  payload: { cardId, outcome },
  platformId,
  dueAt,
  deduplicationKey: cardId
})

const decodePayload = Schema.decodeUnknownOption(Schema.Struct({ cardId: CardId, outcome: Outcome }))

/**
 * Completes provisioning if the card is still `PROCESSING`: `ACTIVE`, or `CLOSED` with `stateReason:
 * ISSUER_REJECTED` and no funding source, with `CARD.STATUS_CHANGE` in the same unit of work. A card that moved on
 * already is left as it is: running the job twice changes nothing more.
 */
export const run = (job: Job.Job) =>
  Effect.gen(function* () {
    const payload = decodePayload(job.payload)
    if (Option.isNone(payload) || job.platformId === undefined) {
      return yield* JobErrors.JobFailed.permanent("the job names no card")
    }
    const platformId = job.platformId
    const { cardId, outcome } = payload.value
    const cards = yield* CardRepo
    const outbox = yield* Outbox.Outbox
    yield* (yield* UnitOfWork.UnitOfWork).transaction(
      Effect.gen(function* () {
        const found = yield* cards.findById(platformId, cardId)
        if (Option.isNone(found)) return
        const stored = found.value
        const status = CardState.next(stored.card.status, outcome === "ACTIVATE" ? "ACTIVATE" : "REJECT")
        if (status._tag === "Left") return
        const now = yield* DateTime.now
        const { fundingSource: _detached, ...rest } = stored.card
        const card =
          outcome === "ACTIVATE"
            ? new Card({ ...stored.card, status: status.right, updatedAt: now }, { disableValidation: true })
            : new Card(
                { ...rest, status: status.right, stateReason: "ISSUER_REJECTED", updatedAt: now },
                { disableValidation: true }
              )
        const applied = yield* cards.update({ ...stored, card, version: stored.version + 1 }, stored.version)
        if (!applied) return yield* JobErrors.JobFailed.retry("the card changed while it was being provisioned")
        yield* outbox.append(yield* CardEvents.ofCard(platformId, "CARD.STATUS_CHANGE", card))
      })
    )
  }).pipe(
    Effect.catchTag("StoreFailure", () => JobErrors.JobFailed.retry("the store failed while provisioning a card"))
  )

/** What the provisioning handler needs from its environment. */
export type Requirements = CardRepo | Outbox.Outbox | UnitOfWork.UnitOfWork | Ids.Ids
