import { type DateTime, Effect, Layer, Option } from "effect"
import {
  type DomainEvent,
  Page,
  type Platform,
  WebhookDelivery,
  WebhookDeliveryRepo,
  WebhookSecret
} from "@payrail/core"
import { MemoryState, setEntry, undoAll } from "../kernel/MemoryState.js"
import { eventsOf } from "../kernel/MemoryOutbox.js"

type Delivery = WebhookDelivery.WebhookDelivery

const pairKey = (delivery: Delivery) => `${delivery.eventId}\n${delivery.url}`

/**
 * `WebhookDeliveryRepo` in memory, keyed by id, with a unique index on (event, URL). `open`, `update` and each
 * entry of `recordAll` apply in one synchronous step, so of concurrent ones from one state exactly one applies.
 * `sources` reads the outbox, platform and secret tables of the same state.
 */
export const layer: Layer.Layer<WebhookDeliveryRepo.WebhookDeliveryRepo, never, MemoryState> = Layer.effect(
  WebhookDeliveryRepo.WebhookDeliveryRepo,
  Effect.gen(function* () {
    const state = yield* MemoryState
    const rows = state.table<Delivery>("webhookDeliveries")
    const byPair = state.table<string>("webhookDeliveryPairs")
    const events = eventsOf(state)
    const platforms = state.table<Platform.Platform>("platforms")
    const secrets = state.table<ReadonlyArray<WebhookSecret.WebhookSecret>>("webhookSecrets")
    const atPair = (eventId: string, url: string) =>
      Option.flatMap(Option.fromNullable(byPair.get(`${eventId}\n${url}`)), (id) => Option.fromNullable(rows.get(id)))

    const open = (delivery: Delivery) =>
      state.write(() => {
        const existing = atPair(delivery.eventId, delivery.url)
        if (Option.isSome(existing)) return [existing.value, () => {}]
        return [
          delivery,
          undoAll([setEntry(rows, delivery.id, delivery), setEntry(byPair, pairKey(delivery), delivery.id)])
        ]
      })
    const update = (next: Delivery, expected: WebhookDelivery.Expected) =>
      state.write(() => {
        const current = rows.get(next.id)
        if (
          current === undefined ||
          current.platformId !== next.platformId ||
          current.status !== expected.status ||
          current.attempts !== expected.attempts
        ) {
          return [false, () => {}]
        }
        return [true, setEntry(rows, next.id, next)]
      })
    const source = (eventId: DomainEvent.EventId, now: DateTime.Utc) => {
      const event = Array.from(events.values()).find((candidate) => candidate.id === eventId)
      if (event === undefined) return Option.none()
      const platform = platforms.get(event.platformId)
      const url = platform?.config.webhookEndpoint
      const endpoint =
        platform === undefined || url === undefined
          ? Option.none()
          : Option.some({ url, environment: platform.environment })
      return Option.some({
        event,
        endpoint,
        secrets: (secrets.get(event.platformId) ?? [])
          .filter((secret) => WebhookSecret.isActive(secret, now))
          .map((secret) => secret.secret),
        delivery: Option.flatMap(endpoint, ({ url }) => atPair(event.id, url))
      })
    }
    return {
      open,
      update,
      sources: (requests) => Effect.sync(() => requests.map(({ eventId, now }) => source(eventId, now))),
      recordAll: (attempts) =>
        Effect.forEach(attempts, ({ expected, next }) =>
          Option.match(expected, {
            onNone: () => Effect.map(open(next), (stored) => stored.id === next.id),
            onSome: (guard) => update(next, guard)
          })
        ),
      findById: (platformId, id) =>
        Effect.sync(() => Option.filter(Option.fromNullable(rows.get(id)), (row) => row.platformId === platformId)),
      list: (platformId, filter, page) =>
        Effect.sync(() => {
          const matching = Array.from(rows.values())
            .filter(
              (row) =>
                row.platformId === platformId &&
                (filter.status === undefined || row.status === filter.status) &&
                (filter.eventType === undefined || row.eventType === filter.eventType)
            )
            .sort((a, b) => Page.compareNewestFirst(WebhookDelivery.keyOf(a), WebhookDelivery.keyOf(b)))
          const after = page.after
          const rest = Option.isSome(after)
            ? matching.filter((row) => Page.isAfter(WebhookDelivery.keyOf(row), after.value))
            : matching
          return Page.fromOverfetch(rest.slice(0, page.limit + 1), page, WebhookDelivery.keyOf, matching.length)
        })
    }
  })
)
