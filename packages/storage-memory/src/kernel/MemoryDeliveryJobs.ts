import {
  type DomainEvent,
  Jobs,
  PlatformRepo,
  type StoreFailure,
  WebhookDeliveryJob,
  WebhookEnvelope
} from "@payrail/core"
import { Effect, Option } from "effect"

/**
 * Enqueues the delivery job of each of `events` (but `TEST` ones) whose platform has a `webhookEndpoint`: what the SQL adapters'
 * outbox trigger does (migration `0016_webhook_delivery_jobs`). Called right after the events are appended, in the
 * caller's unit of work when there is one.
 */
export const enqueueDeliveries = (
  events: ReadonlyArray<DomainEvent.DomainEvent>
): Effect.Effect<void, StoreFailure.StoreFailure, Jobs.Jobs | PlatformRepo.PlatformRepo> =>
  Effect.gen(function* () {
    if (events.length === 0) return
    const platforms = yield* PlatformRepo.PlatformRepo
    const endpointByPlatform = new Map<string, boolean>()
    const due: Array<DomainEvent.DomainEvent> = []
    for (const event of events) {
      // A TEST event is recorded by the send that delivers it (`WebhookDispatch.sendTest`).
      if (event.type === WebhookEnvelope.testType) continue
      let hasEndpoint = endpointByPlatform.get(event.platformId)
      if (hasEndpoint === undefined) {
        const platform = yield* platforms.findById(event.platformId)
        hasEndpoint = Option.isSome(platform) && platform.value.config.webhookEndpoint !== undefined
        endpointByPlatform.set(event.platformId, hasEndpoint)
      }
      if (hasEndpoint) due.push(event)
    }
    yield* (yield* Jobs.Jobs).enqueueAll(
      due.map((event) => WebhookDeliveryJob.newJob(event.id, event.platformId, event.timestamp))
    )
  })
