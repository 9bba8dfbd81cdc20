import { Effect, Either, Exit, Option, Schema } from "effect"
import { DomainEvent, type PlatformId } from "../kernel/index.js"
import * as JobErrors from "./JobErrors.js"
import * as JobHandler from "./JobHandler.js"
import type { NewJob } from "./Job.js"
import { type AttemptOutcome, WebhookDispatch } from "./WebhookDispatch.js"

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

const storeFailed = JobErrors.JobFailed.retry("the store failed during the delivery attempt")

// How the job of an attempt that came to `outcome` is settled.
const exitOf = (outcome: AttemptOutcome): Exit.Exit<void, JobErrors.JobFailed> =>
  outcome._tag === "RetryAt"
    ? Exit.fail(
        JobErrors.JobFailed.retryAt(
          `delivery attempt ${outcome.delivery.attempts} failed${outcome.delivery.lastResponseStatus === undefined ? "" : ` with status ${outcome.delivery.lastResponseStatus}`}`,
          outcome.at
        )
      )
    : Exit.void

const noEvent = Exit.fail(JobErrors.JobFailed.permanent("the job names no event"))

/**
 * Runs one delivery attempt (`WebhookDispatch.attempt`) and settles the job from its outcome: delivered, given up
 * or nothing to do completes it; a failed attempt is retried at the time the webhook retry schedule chose (every
 * 30 minutes at most, for 7 days). The schedule, not the job's attempt count, ends the retries: the job's own
 * limit is set past what 7 days of tries can use. A worker runs the jobs of one claim as one batch
 * (`WebhookDispatch.attemptAll`): one read, one write per group of answers, one completion statement.
 */
export const handler = JobHandler.make({
  kind,
  // 7 days at one try per 30 minutes after the first doublings is about 340 tries.
  retry: { maxAttempts: 1_000, backoffBase: "5 seconds", backoffCap: "30 minutes" },
  handle: (job) =>
    Effect.gen(function* () {
      const eventId = decodeEventId(job.payload["eventId"])
      if (Option.isNone(eventId)) return yield* noEvent
      const outcome = yield* (yield* WebhookDispatch).attempt(eventId.value).pipe(Effect.mapError(() => storeFailed))
      return yield* exitOf(outcome)
    }),
  handleBatch: (jobs, report) =>
    Effect.gen(function* () {
      const dispatch = yield* WebhookDispatch
      // The positions in `jobs` of the jobs that name an event, in the order of `events`.
      const positions: Array<number> = []
      const events: Array<DomainEvent.EventId> = []
      for (const [index, job] of jobs.entries()) {
        const eventId = decodeEventId(job.payload["eventId"])
        if (Option.isSome(eventId)) {
          positions.push(index)
          events.push(eventId.value)
        }
      }
      if (positions.length < jobs.length) {
        yield* report(jobs.flatMap((_, index) => (positions.includes(index) ? [] : [{ index, exit: noEvent }])))
      }
      const [first, ...rest] = events
      if (first === undefined) return
      yield* dispatch.attemptAll([first, ...rest], (outcomes) =>
        report(
          outcomes.map(({ index, outcome }) => ({
            index: positions[index] ?? -1,
            exit: Either.match(outcome, { onLeft: () => Exit.fail(storeFailed), onRight: exitOf })
          }))
        )
      )
    })
})
