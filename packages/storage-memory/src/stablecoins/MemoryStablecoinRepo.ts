import { Effect, Layer, Option } from "effect"
import {
  Errors,
  Page,
  type Stablecoin,
  StablecoinErrors,
  type StablecoinOperation,
  type StablecoinProviderAccount,
  StablecoinRepo
} from "@payrail/core"
import { insertNew, MemoryState, setEntry } from "../kernel/MemoryState.js"

const keyOf = (row: { readonly createdAt: Page.Cursor["createdAt"]; readonly id: string }): Page.Cursor => ({
  createdAt: row.createdAt,
  id: row.id
})

// A newest-first keyset page of `rows` after the request's cursor, without a count.
const pageOf = <A extends { readonly createdAt: Page.Cursor["createdAt"]; readonly id: string }>(
  rows: ReadonlyArray<A>,
  page: Page.PageRequest
): Page.Page<A> => {
  const ordered = [...rows].sort((a, b) => Page.compareNewestFirst(keyOf(a), keyOf(b)))
  const after = page.after
  const rest = after._tag === "Some" ? ordered.filter((row) => Page.isAfter(keyOf(row), after.value)) : ordered
  return Page.fromOverfetch(rest.slice(0, page.limit + 1), page, keyOf)
}

interface Owned<A> {
  readonly platformId: string
  readonly record: A
}

/**
 * `StablecoinRepo` in memory, with the SQL adapter's rules: each id is inserted once; reads are scoped to the
 * platform; lists page by `(createdAt, id)`, newest first.
 */
export const layer: Layer.Layer<StablecoinRepo.StablecoinRepo, never, MemoryState> = Layer.effect(
  StablecoinRepo.StablecoinRepo,
  Effect.gen(function* () {
    const state = yield* MemoryState
    const links = state.table<{
      readonly platformId: string
      readonly stored: StablecoinProviderAccount.StoredProviderAccount
    }>("stablecoin_provider_accounts")
    const coins = state.table<Owned<Stablecoin.Stablecoin>>("stablecoins")
    const operations = state.table<Owned<StablecoinOperation.StablecoinOperation>>("stablecoin_operations")
    const own = <A>(rows: Map<string, Owned<A>>, platformId: string, id: string) => {
      const row = rows.get(id)
      return row !== undefined && row.platformId === platformId ? Option.some(row.record) : Option.none()
    }
    const mine = <A>(rows: Map<string, Owned<A>>, platformId: string, keep: (record: A) => boolean) =>
      Array.from(rows.values())
        .filter((row) => row.platformId === platformId && keep(row.record))
        .map((row) => row.record)
    return StablecoinRepo.StablecoinRepo.of({
      insertProviderAccount: (stored) =>
        insertNew(state, links, "stablecoinProviderAccounts.insert", stored.account.id, {
          platformId: stored.platformId,
          stored
        }),
      findProviderAccount: (platformId, id) =>
        Effect.sync(() => {
          const row = links.get(id)
          return row !== undefined && row.platformId === platformId ? Option.some(row.stored) : Option.none()
        }),
      listProviderAccounts: (platformId, filter, page) =>
        Effect.sync(() =>
          pageOf(
            Array.from(links.values())
              .filter(
                (row) =>
                  row.platformId === platformId &&
                  (filter.provider === undefined || row.stored.account.provider === filter.provider) &&
                  (filter.status === undefined || row.stored.account.status === filter.status)
              )
              .map((row) => row.stored.account),
            page
          )
        ),
      // The token check and the insert are one write under the store's lock: one of concurrent inserts wins.
      insertStablecoin: (platformId, stablecoin) =>
        Effect.flatten(
          state.write<Effect.Effect<void, StablecoinErrors.StablecoinAlreadyRegistered | Errors.StoreFailure>>(() => {
            const { network, networkTokenIdentifier } = stablecoin
            const taken = Array.from(coins.values()).some(
              (row) =>
                row.platformId === platformId &&
                row.record.network === network &&
                row.record.networkTokenIdentifier === networkTokenIdentifier
            )
            if (taken) {
              return [
                Effect.fail(StablecoinErrors.StablecoinAlreadyRegistered.of(network, networkTokenIdentifier)),
                () => {}
              ]
            }
            if (coins.has(stablecoin.id)) {
              return [Effect.fail(Errors.StoreFailure.of("stablecoins.insert", "duplicate id")), () => {}]
            }
            return [Effect.void, setEntry(coins, stablecoin.id, { platformId, record: stablecoin })]
          })
        ),
      findStablecoin: (platformId, id) => Effect.sync(() => own(coins, platformId, id)),
      listStablecoins: (platformId, filter, page) =>
        Effect.sync(() =>
          pageOf(
            mine(
              coins,
              platformId,
              (coin) =>
                (filter.issuanceStatus === undefined || coin.issuanceStatus === filter.issuanceStatus) &&
                (filter.gridOperationsStatus === undefined ||
                  coin.gridOperationsStatus === filter.gridOperationsStatus) &&
                (filter.provider === undefined || coin.provider === filter.provider)
            ),
            page
          )
        ),
      insertOperation: (stored) =>
        insertNew(state, operations, "stablecoinOperations.insert", stored.operation.id, {
          platformId: stored.platformId,
          record: stored.operation
        }),
      updateOperation: (stored, expectedStatus) =>
        state.write((): readonly [boolean, () => void] => {
          const current = operations.get(stored.operation.id)
          if (
            current === undefined ||
            current.platformId !== stored.platformId ||
            current.record.status !== expectedStatus
          ) {
            return [false, () => {}]
          }
          return [
            true,
            setEntry(operations, stored.operation.id, { platformId: stored.platformId, record: stored.operation })
          ]
        }),
      findOperation: (platformId, id) => Effect.sync(() => own(operations, platformId, id)),
      listOperations: (platformId, stablecoinId, page) =>
        Effect.sync(() =>
          pageOf(
            mine(operations, platformId, (operation) => operation.stablecoinId === stablecoinId),
            page
          )
        )
    })
  })
)
