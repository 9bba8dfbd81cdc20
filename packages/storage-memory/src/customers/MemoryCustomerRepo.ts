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
  (filter.umaAddress === undefined || customer.umaAddress === filter.umaAddress) &&
  (filter.currency === undefined || (customer.currencies ?? []).includes(filter.currency)) &&
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
    // (platformId, umaAddress) -> id of the live customer holding it, the same way.
    const byUmaAddress = state.table<string>("customersByUmaAddress")
    const uniqueKey = (platformId: string, value: string) => `${platformId}\u0000${value}`

    type Taken = Errors.PlatformCustomerIdTaken | Errors.UmaAddressTaken
    interface UniqueKey {
      readonly kind: "platformCustomerId" | "umaAddress"
      readonly table: typeof byPlatformCustomerId
      readonly key: string
      readonly taken: () => Taken
    }
    // The unique keys a customer holds, each with its table and the error a second holder gets: none once deleted
    // (a customer stored already deleted holds none, as in the SQL adapter's partial indexes).
    const keysOf = (platformId: string, customer: Customer.Customer): ReadonlyArray<UniqueKey> => {
      if (customer.isDeleted) return []
      const { platformCustomerId, umaAddress } = customer
      const keys: Array<UniqueKey> = [
        {
          kind: "platformCustomerId",
          table: byPlatformCustomerId,
          key: uniqueKey(platformId, platformCustomerId),
          taken: () => Errors.PlatformCustomerIdTaken.of(platformCustomerId)
        }
      ]
      if (umaAddress !== undefined) {
        keys.push({
          kind: "umaAddress",
          table: byUmaAddress,
          key: uniqueKey(platformId, umaAddress),
          taken: () => Errors.UmaAddressTaken.of(umaAddress)
        })
      }
      return keys
    }

    // Inserts `customers` all or nothing: every key is checked (against the store and the earlier customers given)
    // first.
    const insertAll = (platformId: string, customers: ReadonlyArray<CustomerRepo.NewCustomer>) =>
      Effect.flatten(
        state.write<Effect.Effect<void, Taken>>(() => {
          const keyed = customers.map((entry) => ({ ...entry, keys: keysOf(platformId, entry.customer) }))
          const claimed = new Set<string>()
          for (const { keys } of keyed) {
            for (const { key, kind, table, taken } of keys) {
              const claim = `${kind}\u0000${key}`
              if (table.has(key) || claimed.has(claim)) return [Effect.fail(taken()), () => {}] as const
              claimed.add(claim)
            }
          }
          const undos = keyed.flatMap(({ customer, identifier, keys }) => [
            ...keys.map(({ key, table }) => setEntry(table, key, customer.id)),
            setEntry(rows, customer.id, { platformId, customer, identifier, version: 1 })
          ])
          return [Effect.void, undoAll(undos)] as const
        })
      )

    return {
      insert: (platformId, customer, identifier) => insertAll(platformId, [{ customer, identifier }]),
      insertMany: insertAll,
      takenPlatformCustomerIds: (platformId, platformCustomerIds) =>
        Effect.sync(
          () => new Set(platformCustomerIds.filter((value) => byPlatformCustomerId.has(uniqueKey(platformId, value))))
        ),
      takenUmaAddresses: (platformId, umaAddresses) =>
        Effect.sync(() => new Set(umaAddresses.filter((value) => byUmaAddress.has(uniqueKey(platformId, value))))),
      findById: (platformId, id) =>
        Effect.sync(() =>
          Option.fromNullable(rows.get(id)).pipe(
            Option.filter((row) => row.platformId === platformId),
            Option.map(({ customer, identifier, version }) => ({ customer, identifier, version }))
          )
        ),
      findByUmaAddress: (platformId, umaAddress) =>
        Effect.sync(() =>
          Option.fromNullable(byUmaAddress.get(uniqueKey(platformId, umaAddress))).pipe(
            Option.flatMapNullable((id) => rows.get(id)),
            Option.map(({ customer, identifier, version }) => ({ customer, identifier, version }))
          )
        ),
      update: (platformId, next, expectedVersion) =>
        state.write(() => {
          const current = rows.get(next.customer.id)
          if (current === undefined || current.platformId !== platformId || current.version !== expectedVersion) {
            return [false, () => {}] as const
          }
          const undoRow = setEntry(rows, next.customer.id, { ...next, platformId })
          if (!next.customer.isDeleted || current.customer.isDeleted) return [true, undoRow] as const
          // Deleting frees the customer's unique keys.
          const undos = keysOf(platformId, current.customer).map(({ key, table }) => removeEntry(table, key))
          return [true, undoAll([undoRow, ...undos])] as const
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
