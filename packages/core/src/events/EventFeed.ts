import { Context, Effect, Layer, Option } from "effect"
import {
  type DomainEvent,
  type InvalidInput,
  Outbox,
  OutboxPosition,
  type PlatformId,
  type StoreFailure
} from "../kernel/index.js"

/** One page of a platform's event feed: its events, oldest first, and the cursor the next read passes as `after`. */
export interface EventFeedPage {
  readonly events: ReadonlyArray<DomainEvent.DomainEvent>
  /** Opaque: where the next read resumes (unchanged when no event was new). */
  readonly cursor: string
  /** Whether more events were readable than this page holds: read again at once. */
  readonly hasMore: boolean
}

/** The most events one read returns, and the default. */
export const maxLimit = 100

/**
 * A platform's events as they happen, for a client that follows them over HTTP (`payrail webhooks listen`): every
 * event the outbox records, whether or not the platform has a webhook endpoint, in commit order.
 */
export class EventFeed extends Context.Tag("@payrail/core/EventFeed")<
  EventFeed,
  {
    /**
     * The events appended after the cursor `after` (at most `limit`), or, without `after`, none and the cursor of
     * "now". Reading again from each page's cursor misses no committed event and returns none twice, whichever
     * server instance answers. A cursor not handed out by this feed fails with `INVALID_INPUT` naming `after`.
     */
    readonly read: (
      platformId: PlatformId.PlatformId,
      after: Option.Option<string>,
      limit: number
    ) => Effect.Effect<EventFeedPage, InvalidInput.InvalidInput | StoreFailure.StoreFailure>
  }
>() {}

export const layer: Layer.Layer<EventFeed, never, Outbox.Outbox> = Layer.effect(
  EventFeed,
  Effect.map(Outbox.Outbox, (outbox) => ({
    read: Effect.fn("EventFeed.read")(function* (
      platformId: PlatformId.PlatformId,
      after: Option.Option<string>,
      limit: number
    ) {
      const from = Option.isSome(after)
        ? Option.some(yield* OutboxPosition.decode(after.value, "after"))
        : Option.none()
      const found = yield* outbox.feed(platformId, from, limit)
      return {
        events: found.events.map(({ event }) => event),
        cursor: OutboxPosition.encode(found.position),
        hasMore: Option.isSome(from) && found.events.length === limit
      }
    })
  }))
)
