import { Effect, Layer, Option } from "effect"
import { type Card, CardRepo } from "@payrail/core"
import { insertNew, MemoryState, setEntry } from "../kernel/MemoryState.js"
import { pageOf } from "./pages.js"

const matches = (stored: Card.StoredCard, filter: Card.CardFilter): boolean => {
  const card = stored.card
  return (
    (filter.customerId === undefined || card.customerId === filter.customerId) &&
    (filter.accountId === undefined || card.fundingSource === filter.accountId) &&
    (filter.platformCardId === undefined || card.platformCardId === filter.platformCardId) &&
    (filter.status === undefined || card.status === filter.status)
  )
}

/**
 * `CardRepo` in memory, with the SQL adapter's rules: an id is inserted once; reads are scoped to the platform;
 * `update` applies only at the expected version, in one atomic write; lists page by `(createdAt, id)` in either
 * order.
 */
export const layer: Layer.Layer<CardRepo.CardRepo, never, MemoryState> = Layer.effect(
  CardRepo.CardRepo,
  Effect.gen(function* () {
    const state = yield* MemoryState
    const rows = state.table<Card.StoredCard>("cards")
    const own = (platformId: string, id: string) => {
      const row = rows.get(id)
      return row !== undefined && row.platformId === platformId ? row : undefined
    }
    return CardRepo.CardRepo.of({
      insert: (stored) => insertNew(state, rows, "cards.insert", stored.card.id, stored),
      findById: (platformId, id) => Effect.sync(() => Option.fromNullable(own(platformId, id))),
      list: (platformId, filter, page) =>
        Effect.sync(() =>
          pageOf(
            Array.from(rows.values())
              .filter((row) => row.platformId === platformId && matches(row, filter))
              .map((row) => row.card),
            page,
            filter.sortOrder
          )
        ),
      update: (next, expectedVersion) =>
        state.write((): readonly [boolean, () => void] => {
          const current = own(next.platformId, next.card.id)
          if (current === undefined || current.version !== expectedVersion) return [false, () => {}]
          return [true, setEntry(rows, next.card.id, next)]
        })
    })
  })
)
