import { Effect, Layer, Option } from "effect"
import { ExternalAccount, ExternalAccountRepo, Page } from "@payrail/core"
import { MemoryState, removeEntry, setEntry, undoAll } from "../kernel/MemoryState.js"

interface Row {
  readonly platformId: string
  readonly account: ExternalAccount.ExternalAccount
  readonly uniqueKey: string
  readonly deleted: boolean
}

type Account = ExternalAccount.ExternalAccount

const keyOf = (account: Account): Page.Cursor => ({ createdAt: account.createdAt, id: account.id })

// The owner of a platform account is the platform itself; rows are always looked up with their platform id.
const ownerKey = (platformId: string, account: Account) => `${platformId}\u0000${account.customerId ?? ""}`

const matches = (account: Account, filter: ExternalAccountRepo.ExternalAccountFilter) =>
  (filter.owner === "platform" ? account.customerId === undefined : account.customerId !== undefined) &&
  (filter.customerId === undefined || account.customerId === filter.customerId) &&
  (filter.currency === undefined || account.currency === filter.currency)

const exists = ExternalAccountRepo.ExternalAccountExists.of()

/**
 * `ExternalAccountRepo` in memory, with the SQL adapter's rules: unique (owner, account type, identifier) among live
 * accounts; a new default UMA deposit account clears the owner's previous one (its `updatedAt` becomes the new
 * account's) in the same atomic write; deleted accounts are kept but never found, listed nor counted; `transition`
 * stores `next` only from status `from` and keeps the stored `defaultUmaDepositAccount`.
 */
export const layer: Layer.Layer<ExternalAccountRepo.ExternalAccountRepo, never, MemoryState> = Layer.effect(
  ExternalAccountRepo.ExternalAccountRepo,
  Effect.gen(function* () {
    const state = yield* MemoryState
    const rows = state.table<Row>("externalAccounts")
    // Live accounts only: unique key -> account id, and owner -> the id of its default UMA deposit account.
    const byUniqueKey = state.table<string>("externalAccountsByUniqueKey")
    const defaults = state.table<string>("externalAccountDefaults")

    const live = (platformId: string, id: string): Row | undefined => {
      const row = rows.get(id)
      return row !== undefined && row.platformId === platformId && !row.deleted ? row : undefined
    }

    return {
      insert: (platformId, account, identifier) =>
        Effect.flatten(
          state.write<Effect.Effect<void, ExternalAccountRepo.ExternalAccountExists>>(() => {
            const owner = ownerKey(platformId, account)
            const uniqueKey = `${owner}\u0000${account.accountInfo.accountType}\u0000${identifier}`
            if (byUniqueKey.has(uniqueKey)) return [Effect.fail(exists), () => {}] as const
            const undos: Array<() => void> = []
            if (account.defaultUmaDepositAccount) {
              const previous = rows.get(defaults.get(owner) ?? "")
              if (previous !== undefined) {
                const cleared = new ExternalAccount.ExternalAccount({
                  ...previous.account,
                  defaultUmaDepositAccount: false,
                  updatedAt: account.updatedAt
                })
                undos.push(setEntry(rows, cleared.id, { ...previous, account: cleared }))
              }
              undos.push(setEntry(defaults, owner, account.id))
            }
            undos.push(setEntry(byUniqueKey, uniqueKey, account.id))
            undos.push(setEntry(rows, account.id, { platformId, account, uniqueKey, deleted: false }))
            return [Effect.void, undoAll(undos)] as const
          })
        ),
      findById: (platformId, id) =>
        Effect.sync(() => Option.map(Option.fromNullable(live(platformId, id)), (row) => row.account)),
      list: (platformId, filter, page) =>
        Effect.sync(() => {
          const matching = Array.from(rows.values())
            .filter((row) => row.platformId === platformId && !row.deleted && matches(row.account, filter))
            .map((row) => row.account)
            .sort((a, b) => Page.compareNewestFirst(keyOf(a), keyOf(b)))
          const after = page.after
          const rest = Option.isSome(after)
            ? matching.filter((account) => Page.isAfter(keyOf(account), after.value))
            : matching
          return Page.fromOverfetch(rest.slice(0, page.limit + 1), page, keyOf, matching.length)
        }),
      transition: (platformId, id, from, next) =>
        state.write(() => {
          const current = live(platformId, id)
          if (current === undefined || current.account.status !== from) return [false, () => {}] as const
          const account = new ExternalAccount.ExternalAccount({
            ...next,
            defaultUmaDepositAccount: current.account.defaultUmaDepositAccount
          })
          return [true, setEntry(rows, id, { ...current, account })] as const
        }),
      delete: (platformId, id) =>
        state.write(() => {
          const current = live(platformId, id)
          if (current === undefined) return [false, () => {}] as const
          const owner = ownerKey(platformId, current.account)
          const undos = [setEntry(rows, id, { ...current, deleted: true })]
          undos.push(removeEntry(byUniqueKey, current.uniqueKey))
          if (defaults.get(owner) === id) undos.push(removeEntry(defaults, owner))
          return [true, undoAll(undos)] as const
        })
    }
  })
)
