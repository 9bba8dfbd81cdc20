import { DateTime, Effect, Layer, Option } from "effect"
import { type Customer, CustomerRepo, Errors, Page } from "@payrail/core"
import { MemoryState, removeEntry, setEntry, undoAll } from "../kernel/MemoryState.js"

interface Row extends CustomerRepo.StoredCustomer {
  readonly platformId: string
}

const keyOf = (customer: Customer.Customer): Page.Cursor => ({ createdAt: customer.createdAt, id: customer.id })

const within = (value: DateTime.Utc, after: DateTime.Utc | undefined, before: DateTime.Utc | undefined) =>
  (after === undefined || DateTime.greaterThanOrEqualTo(value, after)) &&
  (before === undefined || DateTime.lessThanOrEqualTo(value, before))

const matches = (customer: Customer.Customer, filter: CustomerRepo.CustomerFilter): boolean =>
  (filter.isIncludingDeleted === true || !customer.isDeleted) &&
  (filter.platformCustomerId === undefined || customer.platformCustomerId === filter.platformCustomerId) &&
  (filter.customerType === undefined || customer.customerType === filter.customerType) &&
  (filter.region === undefined || customer.region === filter.region) &&
  (filter.email === undefined || customer.email === filter.email) &&
  within(customer.createdAt, filter.createdAfter, filter.createdBefore) &&
  within(customer.updatedAt, filter.updatedAfter, filter.updatedBefore)

/** `CustomerRepo` in memory, with the same uniqueness and ordering rules as the SQL adapter. */
export const layer = Layer.effect(
  CustomerRepo.CustomerRepo,
  Effect.gen(function* () {
    const state = yield* MemoryState
    const rows = state.table<Row>("customers")
    // (platformId, platformCustomerId) -> id of the live customer holding it: the unique key (deleting frees it).
    const byPlatformCustomerId = state.table<string>("customersByPlatformCustomerId")
    const uniqueKey = (platformId: string, platformCustomerId: string) => `${platformId}\u0000${platformCustomerId}`

    return {
      insert: (platformId, customer, identifier) =>
        Effect.flatten(
          state.write<Effect.Effect<void, Errors.PlatformCustomerIdTaken>>(() => {
            const key = uniqueKey(platformId, customer.platformCustomerId)
            // A customer stored already deleted holds no key, as in the SQL adapter's partial index.
            if (customer.isDeleted) {
              return [
                Effect.void,
                setEntry(rows, customer.id, { platformId, customer, identifier, version: 1 })
              ] as const
            }
            if (byPlatformCustomerId.has(key)) {
              const taken = Errors.PlatformCustomerIdTaken.of(customer.platformCustomerId)
              return [Effect.fail(taken), () => {}] as const
            }
            const undoIndex = setEntry(byPlatformCustomerId, key, customer.id)
            const undoRow = setEntry(rows, customer.id, { platformId, customer, identifier, version: 1 })
            return [
              Effect.void,
              () => {
                undoRow()
                undoIndex()
              }
            ] as const
          })
        ),
      insertMany: (platformId, customers) =>
        Effect.flatten(
          state.write<Effect.Effect<void, Errors.PlatformCustomerIdTaken>>(() => {
            // All or nothing: every key is checked (against the store and the earlier customers given) first.
            const keys = new Set<string>()
            for (const { customer } of customers) {
              if (customer.isDeleted) continue
              const key = uniqueKey(platformId, customer.platformCustomerId)
              if (byPlatformCustomerId.has(key) || keys.has(key)) {
                return [Effect.fail(Errors.PlatformCustomerIdTaken.of(customer.platformCustomerId)), () => {}] as const
              }
              keys.add(key)
            }
            const undos = customers.flatMap(({ customer, identifier }) => [
              ...(customer.isDeleted
                ? []
                : [setEntry(byPlatformCustomerId, uniqueKey(platformId, customer.platformCustomerId), customer.id)]),
              setEntry(rows, customer.id, { platformId, customer, identifier, version: 1 })
            ])
            return [Effect.void, undoAll(undos)] as const
          })
        ),
      takenPlatformCustomerIds: (platformId, platformCustomerIds) =>
        Effect.sync(
          () => new Set(platformCustomerIds.filter((value) => byPlatformCustomerId.has(uniqueKey(platformId, value))))
        ),
      takenUmaAddresses: (platformId, umaAddresses) =>
        Effect.sync(() => {
          const wanted = new Set(umaAddresses)
          const taken = new Set<string>()
          for (const { customer, platformId: owner } of rows.values()) {
            const address = customer.umaAddress
            if (owner === platformId && !customer.isDeleted && address !== undefined && wanted.has(address)) {
              taken.add(address)
            }
          }
          return taken
        }),
      findById: (platformId, id) =>
        Effect.sync(() =>
          Option.fromNullable(rows.get(id)).pipe(
            Option.filter((row) => row.platformId === platformId),
            Option.map(({ customer, identifier, version }) => ({ customer, identifier, version }))
          )
        ),
      findByUmaAddress: (platformId, umaAddress) =>
        Effect.sync(() => {
          const oldest = Array.from(rows.values())
            .filter(
              (row) =>
                row.platformId === platformId && row.customer.umaAddress === umaAddress && !row.customer.isDeleted
            )
            .sort((a, b) => Page.compareNewestFirst(keyOf(b.customer), keyOf(a.customer)))[0]
          return Option.map(Option.fromNullable(oldest), ({ customer, identifier, version }) => ({
            customer,
            identifier,
            version
          }))
        }),
      update: (platformId, next, expectedVersion) =>
        state.write(() => {
          const current = rows.get(next.customer.id)
          if (current === undefined || current.platformId !== platformId || current.version !== expectedVersion) {
            return [false, () => {}] as const
          }
          const undoRow = setEntry(rows, next.customer.id, { ...next, platformId })
          if (!next.customer.isDeleted || current.customer.isDeleted) return [true, undoRow] as const
          const undoIndex = removeEntry(
            byPlatformCustomerId,
            uniqueKey(platformId, current.customer.platformCustomerId)
          )
          return [
            true,
            () => {
              undoIndex()
              undoRow()
            }
          ] as const
        }),
      list: (platformId, filter, page) =>
        Effect.sync(() => {
          const matching = Array.from(rows.values())
            .filter((row) => row.platformId === platformId && matches(row.customer, filter))
            .map((row) => row.customer)
            .sort((a, b) => Page.compareNewestFirst(keyOf(a), keyOf(b)))
          const after = page.after
          const rest = Option.isSome(after)
            ? matching.filter((customer) => Page.isAfter(keyOf(customer), after.value))
            : matching
          return Page.fromOverfetch(rest.slice(0, page.limit + 1), page, keyOf, matching.length)
        })
    }
  })
)
