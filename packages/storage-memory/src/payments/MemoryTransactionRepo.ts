import { DateTime, Effect, Layer, Option } from "effect"
import { Errors, Ledger, Page, Transaction, TransactionRepo } from "@payrail/core"
import { MemoryState, setEntry } from "../kernel/MemoryState.js"

interface Row extends TransactionRepo.StoredTransaction {
  readonly platformId: string
}

const keyOf = (transaction: Transaction.Transaction): Page.Cursor => ({
  createdAt: transaction.createdAt,
  id: transaction.id
})

const equalIfSet = <A>(wanted: A | undefined, actual: A | undefined): boolean =>
  wanted === undefined || actual === wanted

const matches = (transaction: Transaction.Transaction, filter: TransactionRepo.TransactionFilter): boolean => {
  const sender = Transaction.senderIdentifier(transaction)
  const receiver = Transaction.receiverIdentifier(transaction)
  return (
    equalIfSet(filter.customerId, transaction.customerId) &&
    equalIfSet(filter.platformCustomerId, transaction.platformCustomerId) &&
    (filter.accountIdentifier === undefined ||
      sender === filter.accountIdentifier ||
      receiver === filter.accountIdentifier) &&
    equalIfSet(filter.senderAccountIdentifier, sender) &&
    equalIfSet(filter.receiverAccountIdentifier, receiver) &&
    equalIfSet(filter.status, transaction.status) &&
    equalIfSet(filter.type, transaction.type) &&
    equalIfSet(filter.reference, transaction.reconciliationInstructions?.reference) &&
    (filter.startDate === undefined || DateTime.greaterThanOrEqualTo(transaction.createdAt, filter.startDate)) &&
    (filter.endDate === undefined || DateTime.lessThanOrEqualTo(transaction.createdAt, filter.endDate))
  )
}

// Newest first is `Page`'s own order; oldest first is its reverse, and "after the cursor" reverses with it.
const compareIn = (order: "asc" | "desc") => (a: Page.Cursor, b: Page.Cursor) =>
  order === "desc" ? Page.compareNewestFirst(a, b) : Page.compareNewestFirst(b, a)

/**
 * `TransactionRepo` in memory, with the SQL adapter's rules: an id is inserted once (a second insert fails with
 * `StoreFailure` and changes nothing); every read is scoped to the platform; `transition` stores `next` (record and
 * posting), and `advance` its changes, only while the status is `from`, in one atomic write that a failed unit of work undoes; `list` orders
 * by `(createdAt, id)` in `sortOrder`, takes the rows beyond the cursor in that order, and does not count.
 * `insertPosted` is the ledger's `postRecording` and the insert in one nested unit of work: all or nothing.
 */
export const layer: Layer.Layer<TransactionRepo.TransactionRepo, never, MemoryState | Ledger.Ledger> = Layer.effect(
  TransactionRepo.TransactionRepo,
  Effect.gen(function* () {
    const state = yield* MemoryState
    const ledger = yield* Ledger.Ledger
    const rows = state.table<Row>("transactions")

    const own = (platformId: string, id: string): Row | undefined => {
      const row = rows.get(id)
      return row !== undefined && row.platformId === platformId ? row : undefined
    }

    const insert = (platformId: string, stored: TransactionRepo.StoredTransaction) =>
      Effect.flatten(
        state.write<Effect.Effect<void, Errors.StoreFailure>>(() =>
          rows.has(stored.transaction.id)
            ? [Effect.fail(Errors.StoreFailure.of("transactions.insert", "duplicate id")), () => {}]
            : [Effect.void, setEntry(rows, stored.transaction.id, { ...stored, platformId })]
        )
      )

    return {
      insert,
      insertPosted: (posting, transaction, event) =>
        state.transaction(
          Effect.tap(ledger.postRecording(posting, { event, postingIdAt: [], balancesAt: [] }), (result) =>
            result.applied
              ? insert(posting.platformId, { transaction, postingId: Option.some(result.postingId) })
              : Effect.void
          )
        ),
      findById: (platformId, id) =>
        Effect.sync(() =>
          Option.map(Option.fromNullable(own(platformId, id)), ({ transaction, postingId }) => ({
            transaction,
            postingId
          }))
        ),
      list: (platformId, filter, page) =>
        Effect.sync(() => {
          const compare = compareIn(filter.sortOrder)
          const after = page.after
          const matching = Array.from(rows.values())
            .filter((row) => row.platformId === platformId && matches(row.transaction, filter))
            .map((row) => row.transaction)
            .filter((transaction) => Option.isNone(after) || compare(keyOf(transaction), after.value) > 0)
            .sort((a, b) => compare(keyOf(a), keyOf(b)))
          return Page.fromOverfetch(matching.slice(0, page.limit + 1), page, keyOf)
        }),
      advance: (platformId, id, from, changes) =>
        state.write(() => {
          const current = own(platformId, id)
          if (current === undefined || current.transaction.status !== from) {
            return [Option.none<TransactionRepo.StoredTransaction>(), () => {}] as const
          }
          const stored: TransactionRepo.StoredTransaction = {
            transaction: new Transaction.Transaction(
              {
                ...current.transaction,
                status: changes.status,
                updatedAt: changes.updatedAt,
                ...(changes.settledAt === undefined ? {} : { settledAt: changes.settledAt })
              },
              { disableValidation: true }
            ),
            postingId: changes.postingId
          }
          return [Option.some(stored), setEntry(rows, id, { ...stored, platformId })] as const
        }),
      transition: (platformId, id, from, next) =>
        state.write(() => {
          const current = own(platformId, id)
          if (current === undefined || current.transaction.status !== from) return [false, () => {}] as const
          return [true, setEntry(rows, id, { ...next, platformId })] as const
        })
    }
  })
)
