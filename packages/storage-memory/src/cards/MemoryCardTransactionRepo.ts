import { DateTime, Effect, Layer, Option } from "effect"
import { type CardTransaction, CardTransactionRepo } from "@payrail/core"
import { insertNew, MemoryState, setEntry } from "../kernel/MemoryState.js"
import { pageOf } from "./pages.js"

const matches = (stored: CardTransaction.StoredCardTransaction, filter: CardTransaction.CardTransactionFilter) => {
  const row = stored.transaction
  return (
    (filter.cardId === undefined || row.cardId === filter.cardId) &&
    (filter.customerId === undefined || row.customerId === filter.customerId) &&
    (filter.platformCustomerId === undefined || row.platformCustomerId === filter.platformCustomerId) &&
    (filter.accountId === undefined || row.accountId === filter.accountId) &&
    (filter.status === undefined || row.status === filter.status) &&
    (filter.startDate === undefined || DateTime.greaterThanOrEqualTo(row.createdAt, filter.startDate)) &&
    (filter.endDate === undefined || DateTime.lessThanOrEqualTo(row.createdAt, filter.endDate))
  )
}

/**
 * `CardTransactionRepo` in memory, with the SQL adapter's rules: an id is inserted once; reads are scoped to the
 * platform; `update` applies only at the expected version, in one atomic write; lists page by `(createdAt, id)`
 * in either order.
 */
export const layer: Layer.Layer<CardTransactionRepo.CardTransactionRepo, never, MemoryState> = Layer.effect(
  CardTransactionRepo.CardTransactionRepo,
  Effect.gen(function* () {
    const state = yield* MemoryState
    const rows = state.table<CardTransaction.StoredCardTransaction>("cardTransactions")
    const own = (platformId: string, id: string) => {
      const row = rows.get(id)
      return row !== undefined && row.platformId === platformId ? row : undefined
    }
    return CardTransactionRepo.CardTransactionRepo.of({
      insert: (stored) => insertNew(state, rows, "cardTransactions.insert", stored.transaction.id, stored),
      findById: (platformId, id) => Effect.sync(() => Option.fromNullable(own(platformId, id))),
      list: (platformId, filter, page) =>
        Effect.sync(() =>
          pageOf(
            Array.from(rows.values())
              .filter((row) => row.platformId === platformId && matches(row, filter))
              .map((row) => row.transaction),
            page,
            filter.sortOrder
          )
        ),
      update: (next, expectedVersion) =>
        state.write((): readonly [boolean, () => void] => {
          const current = own(next.platformId, next.transaction.id)
          if (current === undefined || current.version !== expectedVersion) return [false, () => {}]
          return [true, setEntry(rows, next.transaction.id, next)]
        })
    })
  })
)
