import { Effect, Option, Schema } from "effect"
import { DomainEvent, type PlatformId } from "../kernel/index.js"
import * as JobErrors from "./JobErrors.js"
import * as JobHandler from "./JobHandler.js"
import type { NewJob } from "./Job.js"
import { WebhookDispatch } from "./WebhookDispatch.js"

/** The kind of the job that delivers one outbox event to its platform's webhook endpoint. */
export const kind = "webhook.deliver"

/**
 * The delivery job of `eventId`, due at `dueAt`. Its de-duplication key is the event id unless given, so an event has
 * at most one delivery job of the outbox waiting or running; a manual redelivery uses its own key, so that it runs
 * at once even while a retry waits (the retry then finds the delivery settled and does nothing). SQL stores enqueue it from the outbox
 * itself (migration `0016_webhook_delivery_jobs`), in the unit of work that appends the event.
 */
export const newJob = (
  eventId: DomainEvent.EventId,
  platformId: PlatformId.PlatformId,
  dueAt: NewJob["dueAt"],
  deduplicationKey: string = eventId
): NewJob => ({ kind, payload: { eventId }, platformId, dueAt, deduplicationKey })

const decodeEventId = Schema.decodeUnknownOption(DomainEvent.EventId)

/**
 * Runs one delivery attempt (`WebhookDispatch.attempt`) and settles the job from its outcome: delivered, given up
 * or nothing to do completes it; a failed attempt is retried at the time the webhook retry schedule chose (every
 * 30 minutes at most, for 7 days). The schedule, not the job's attempt count, ends the retries: the job's own
 * limit is set past what 7 days of tries can use.
 */
export const handler = JobHandler.make({
  kind,
  // 7 days at one try per 30 minutes after the first doublings is about 340 tries.
  retry: { maxAttempts: 1_000, backoffBase: "5 seconds", backoffCap: "30 minutes" },
  handle: (job) =>
    Effect.gen(function* () {
      const eventId = decodeEventId(job.payload["eventId"])
      if (Option.isNone(eventId)) return yield* JobErrors.JobFailed.permanent("the job names no event")
      const outcome = yield* (yield* WebhookDispatch)
        .attempt(eventId.value)
        .pipe(Effect.mapError(() => JobErrors.JobFailed.retry("the store failed during the delivery attempt")))
      if (outcome._tag === "RetryAt") {
        return yield* JobErrors.JobFailed.retryAt(
          `delivery attempt ${outcome.delivery.attempts} failed${outcome.delivery.lastResponseStatus === undefined ? "" : ` with status ${outcome.delivery.lastResponseStatus}`}`,
          outcome.at
        )
      }
    })
})
