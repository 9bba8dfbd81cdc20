import { Effect, Layer, Option } from "effect"
import { Page, WebhookDelivery, WebhookDeliveryRepo } from "@payrail/core"
import { MemoryState, setEntry, undoAll } from "../kernel/MemoryState.js"

type Delivery = WebhookDelivery.WebhookDelivery

const pairKey = (delivery: Delivery) => `${delivery.eventId}\n${delivery.url}`

/**
 * `WebhookDeliveryRepo` in memory, keyed by id, with a unique index on (event, URL). `open` and `update` each
 * apply in one synchronous step, so of concurrent ones from one state exactly one applies.
 */
export const layer: Layer.Layer<WebhookDeliveryRepo.WebhookDeliveryRepo, never, MemoryState> = Layer.effect(
  WebhookDeliveryRepo.WebhookDeliveryRepo,
  Effect.gen(function* () {
    const state = yield* MemoryState
    const rows = state.table<Delivery>("webhookDeliveries")
    const byPair = state.table<string>("webhookDeliveryPairs")
    return {
      open: (delivery) =>
        state.write(() => {
          const existing = Option.flatMap(Option.fromNullable(byPair.get(pairKey(delivery))), (id) =>
            Option.fromNullable(rows.get(id))
          )
          if (Option.isSome(existing)) return [existing.value, () => {}]
          return [
            delivery,
            undoAll([setEntry(rows, delivery.id, delivery), setEntry(byPair, pairKey(delivery), delivery.id)])
          ]
        }),
      update: (next, expected) =>
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
        }),
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
