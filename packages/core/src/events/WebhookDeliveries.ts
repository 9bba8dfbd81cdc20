import { Context, DateTime, Effect, Layer, Option } from "effect"
import { type DomainEvent, Outbox, type Page, type PlatformId, type StoreFailure, UnitOfWork } from "../kernel/index.js"
import { Jobs } from "./Jobs.js"
import { expectedOf, WebhookDelivery, type WebhookDeliveryId } from "./WebhookDelivery.js"
import { type DeliveryFilter, WebhookDeliveryRepo } from "./WebhookDeliveryRepo.js"
import * as WebhookDeliveryJob from "./WebhookDeliveryJob.js"
import { WebhookDeliveryNotFound } from "./WebhookErrors.js"

/** The delivery log as the platform API shows it: lists, reads and manual redelivery. */
export class WebhookDeliveries extends Context.Tag("@payrail/core/WebhookDeliveries")<
  WebhookDeliveries,
  {
    readonly list: (
      platformId: PlatformId.PlatformId,
      filter: DeliveryFilter,
      page: Page.PageRequest
    ) => Effect.Effect<Page.Page<WebhookDelivery>, StoreFailure.StoreFailure>
    readonly get: (
      platformId: PlatformId.PlatformId,
      id: WebhookDeliveryId
    ) => Effect.Effect<WebhookDelivery, WebhookDeliveryNotFound | StoreFailure.StoreFailure>
    /**
     * Makes the delivery `PENDING` again, due now, with a fresh retry window (a delivered one is sent again too: the
     * receiver de-duplicates by the webhook id). A delivery already `PENDING` is answered unchanged.
     */
    readonly redeliver: (
      platformId: PlatformId.PlatformId,
      id: WebhookDeliveryId
    ) => Effect.Effect<WebhookDelivery, WebhookDeliveryNotFound | StoreFailure.StoreFailure>
    /**
     * The events with these ids that belong to the platform, in the order asked: what their deliveries send (the
     * webhook body is `WebhookEnvelope.ofEvent` of each). An id of another platform's event, or of none, is left
     * out, so the answer never tells one platform about another's events.
     */
    readonly events: (
      platformId: PlatformId.PlatformId,
      ids: ReadonlyArray<DomainEvent.EventId>
    ) => Effect.Effect<ReadonlyArray<DomainEvent.DomainEvent>, StoreFailure.StoreFailure>
  }
>() {}

export const layer = Layer.effect(
  WebhookDeliveries,
  Effect.gen(function* () {
    const repo = yield* WebhookDeliveryRepo
    const jobs = yield* Jobs
    const unitOfWork = yield* UnitOfWork.UnitOfWork
    const outbox = yield* Outbox.Outbox
    const get = Effect.fn("WebhookDeliveries.get")(function* (
      platformId: PlatformId.PlatformId,
      id: WebhookDeliveryId
    ) {
      const found = yield* repo.findById(platformId, id)
      if (Option.isNone(found)) return yield* WebhookDeliveryNotFound.of(id)
      return found.value
    })
    return {
      list: (platformId, filter, page) =>
        Effect.withSpan(repo.list(platformId, filter, page), "WebhookDeliveries.list"),
      get,
      events: Effect.fn("WebhookDeliveries.events")(function* (platformId, ids) {
        const found = yield* Effect.forEach(ids, outbox.findById, { concurrency: 8 })
        return found.flatMap((event) =>
          Option.isSome(event) && event.value.platformId === platformId ? [event.value] : []
        )
      }),
      redeliver: Effect.fn("WebhookDeliveries.redeliver")(function* (platformId, id) {
        // A compare-and-set from the state as read; when a concurrent attempt changed it first, read it again.
        for (;;) {
          const current = yield* get(platformId, id)
          if (current.status === "PENDING") return current
          const now = yield* DateTime.now
          const next = new WebhookDelivery({
            ...current,
            status: "PENDING",
            nextAttemptAt: now,
            retriesSince: now,
            updatedAt: now
          })
          // The delivery made due again and its job commit together: a redelivery is never left without a job.
          const updated = yield* unitOfWork.transaction(
            Effect.gen(function* () {
              if (!(yield* repo.update(next, expectedOf(current)))) return false
              yield* jobs.enqueue(
                WebhookDeliveryJob.newJob(current.eventId, platformId, now, `redeliver:${current.id}`)
              )
              return true
            })
          )
          if (updated) return next
        }
      })
    }
  })
)
