import { Effect, Layer, Option } from "effect"
import { InternalAccount, InternalAccountRepo, Page } from "@payrail/core"
import { MemoryState, setEntry, undoAll } from "../kernel/MemoryState.js"

interface Row {
  readonly platformId: string
  readonly account: InternalAccount.InternalAccount
}

const keyOf = (account: InternalAccount.InternalAccount): Page.Cursor => ({
  createdAt: account.createdAt,
  id: account.id
})

const matches = (account: InternalAccount.InternalAccount, filter: InternalAccountRepo.InternalAccountFilter) =>
  (filter.owner === "platform" ? account.customerId === undefined : account.customerId !== undefined) &&
  (filter.customerId === undefined || account.customerId === filter.customerId) &&
  (filter.type === undefined || account.type === filter.type) &&
  (filter.currency === undefined || account.currency === filter.currency)

/**
 * `InternalAccountRepo` in memory with the SQL adapter's rules: scoped per platform (another platform's account is
 * never found nor listed), `owner: "customers"` selecting accounts with a `customerId`, keyset pages newest first by
 * `(createdAt, id)` with the total count of the matching accounts. Writes join the caller's unit of work.
 */
export const layer: Layer.Layer<InternalAccountRepo.InternalAccountRepo, never, MemoryState> = Layer.effect(
  InternalAccountRepo.InternalAccountRepo,
  Effect.gen(function* () {
    const state = yield* MemoryState
    const rows = state.table<Row>("internalAccounts")
    return {
      insert: (platformId, account) =>
        state.write(() => [undefined, setEntry(rows, account.id, { platformId, account })]),
      insertAll: (platformId, accounts) =>
        state.write(() => [
          undefined,
          undoAll(accounts.map((account) => setEntry(rows, account.id, { platformId, account })))
        ]),
      findById: (platformId, id) =>
        Effect.sync(() =>
          Option.fromNullable(rows.get(id)).pipe(
            Option.filter((row) => row.platformId === platformId),
            Option.map((row) => row.account)
          )
        ),
      list: (platformId, filter, page) =>
        Effect.sync(() => {
          const matching = Array.from(rows.values())
            .filter((row) => row.platformId === platformId && matches(row.account, filter))
            .map((row) => row.account)
            .sort((a, b) => Page.compareNewestFirst(keyOf(a), keyOf(b)))
          const after = page.after
          const rest = Option.isSome(after)
            ? matching.filter((account) => Page.isAfter(keyOf(account), after.value))
            : matching
          return Page.fromOverfetch(rest.slice(0, page.limit + 1), page, keyOf, matching.length)
        }),
      setPrivateEnabled: (platformId, id, privateEnabled, at) =>
        state.write((): readonly [Option.Option<InternalAccount.InternalAccount>, () => void] => {
          const row = rows.get(id)
          if (row === undefined || row.platformId !== platformId || row.account.type !== "EMBEDDED_WALLET") {
            return [Option.none(), () => {}]
          }
          const account = new InternalAccount.InternalAccount({ ...row.account, privateEnabled, updatedAt: at })
          return [Option.some(account), setEntry(rows, id, { platformId, account })]
        })
    }
  })
)
