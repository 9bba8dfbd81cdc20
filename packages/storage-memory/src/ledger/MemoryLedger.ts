import { type Context, Effect, Layer } from "effect"
import { Errors, type Jobs, Ledger, type Platform, type PlatformRepo, RecordedEvent } from "@payrail/core"
import { enqueueDeliveries } from "../kernel/MemoryDeliveryJobs.js"
import { MemoryState, setEntry, undoAll } from "../kernel/MemoryState.js"
import { appendTo, eventsOf } from "../kernel/MemoryOutbox.js"

interface AccountRow {
  readonly account: Ledger.LedgerAccount
  readonly postedMinor: bigint
  readonly pendingDebitsMinor: bigint
  readonly pendingCreditsMinor: bigint
}

interface PostingRow {
  readonly id: Ledger.PostingId
  readonly platformId: Platform.PlatformId
  readonly fingerprint: string
  readonly status: "posted" | "pending" | "released"
  readonly entries: ReadonlyArray<Ledger.Entry>
}

interface Move {
  readonly accountId: string
  readonly debitsMinor: bigint
  readonly creditsMinor: bigint
}

type Outcome<A, E> = readonly [Effect.Effect<A, E>, () => void]

const nothing = () => {}
const hex = (n: number) => n.toString(16).padStart(12, "0")

// Debits and credits of each account of a posting, in account id order: the order in which guards are checked.
const movesOf = (entries: ReadonlyArray<Ledger.Entry>): ReadonlyArray<Move> => {
  const moves = new Map<string, Move>()
  for (const { accountId, amountMinor } of entries) {
    const move = moves.get(accountId) ?? { accountId, debitsMinor: 0n, creditsMinor: 0n }
    moves.set(accountId, {
      accountId,
      debitsMinor: move.debitsMinor + (amountMinor < 0n ? -amountMinor : 0n),
      creditsMinor: move.creditsMinor + (amountMinor > 0n ? amountMinor : 0n)
    })
  }
  return Array.from(moves.values()).sort((a, b) => (a.accountId < b.accountId ? -1 : 1))
}

// An account's row after a posting of `status` moved it.
const posted =
  (status: Ledger.Posting["status"]) =>
  (row: AccountRow, { debitsMinor, creditsMinor }: Move): AccountRow =>
    status === "posted"
      ? { ...row, postedMinor: row.postedMinor + creditsMinor - debitsMinor }
      : {
          ...row,
          pendingDebitsMinor: row.pendingDebitsMinor + debitsMinor,
          pendingCreditsMinor: row.pendingCreditsMinor + creditsMinor
        }

const unknownAccount = (accountId: string) => Ledger.InvalidPosting.of("account_not_found", { accountId })
const settled = (postingId: string) => Ledger.ReservationSettled.of(postingId)

/**
 * `Ledger` in memory, with the semantics of the SQL adapter: the same checks in the same order, each call one
 * atomic step of `MemoryState` (so a failed posting leaves nothing, and inside a unit of work it joins the undo
 * log). Every account keeps running totals; `reconcile` recomputes them from the entries. Posting ids come from a
 * counter: `Posting:00000000-0000-4000-8000-<n>`.
 */
export const make: Effect.Effect<
  Context.Tag.Service<Ledger.Ledger>,
  never,
  MemoryState | Jobs.Jobs | PlatformRepo.PlatformRepo
> = Effect.flatMap(Effect.context<MemoryState | Jobs.Jobs | PlatformRepo.PlatformRepo>(), (context) =>
  Effect.map(MemoryState, (state) => {
    // A recorded event's delivery job, as the SQL adapters' outbox trigger enqueues it.
    const deliveries = Effect.provide(context)
    const accounts = state.table<AccountRow>("ledgerAccounts")
    const postings = state.table<PostingRow>("ledgerPostings")
    const keys = state.table<Ledger.PostingId>("ledgerIdempotencyKeys")
    const entriesByAccount =
      state.table<Array<{ readonly postingId: Ledger.PostingId; readonly amountMinor: bigint }>>(
        "ledgerEntriesByAccount"
      )
    const outbox = eventsOf(state)
    let sequence = 0

    const accountOf = (platformId: Platform.PlatformId, accountId: string) => {
      const row = accounts.get(accountId)
      return row !== undefined && row.account.platformId === platformId ? row : undefined
    }

    const moveAccount = (move: Move, apply: (row: AccountRow, move: Move) => AccountRow): (() => void) => {
      const row = accounts.get(move.accountId)
      return row === undefined ? nothing : setEntry(accounts, move.accountId, apply(row, move))
    }

    // The balances of the posting's guarded accounts as they are now, in account id order, as `PostResult` lists them.
    const guardedBalances = (entries: ReadonlyArray<Ledger.Entry>): ReadonlyArray<Ledger.Balance> =>
      movesOf(entries).flatMap(({ accountId }) => {
        const row = accounts.get(accountId)
        return row !== undefined && row.account.guarded ? [balanceOf(row)] : []
      })

    const apply = (
      posting: Ledger.Posting,
      fingerprint: string,
      recorded: RecordedEvent.RecordedEvent | undefined
    ): Outcome<Ledger.PostResult, never> => {
      sequence += 1
      const id = Ledger.PostingId.make(`Posting:00000000-0000-4000-8000-${hex(sequence)}`)
      const undos = [
        setEntry(postings, id, {
          id,
          platformId: posting.platformId,
          fingerprint,
          status: posting.status,
          entries: posting.entries
        }),
        setEntry(keys, `${posting.platformId}\u0000${posting.idempotencyKey}`, id)
      ]
      for (const move of movesOf(posting.entries)) {
        undos.push(moveAccount(move, posted(posting.status)))
      }
      for (const { accountId, amountMinor } of posting.entries) {
        const list = entriesByAccount.get(accountId) ?? []
        if (!entriesByAccount.has(accountId)) undos.push(setEntry(entriesByAccount, accountId, list))
        list.push({ postingId: id, amountMinor })
        undos.push(() => void list.pop())
      }
      const result = { postingId: id, applied: true, balances: guardedBalances(posting.entries) }
      if (recorded !== undefined) undos.push(appendTo(outbox, RecordedEvent.complete(recorded, result)))
      return [Effect.succeed(result), () => undos.reverse().forEach((undo) => undo())]
    }

    // `post`, recording the completed event in the same step when the posting applies.
    const post = (posting: Ledger.Posting, recorded?: RecordedEvent.RecordedEvent) =>
      state.write(
        (): Outcome<
          Ledger.PostResult,
          | Ledger.BalanceLimitExceeded
          | Ledger.InsufficientFunds
          | Ledger.IdempotencyKeyReused
          | Ledger.InvalidPosting
          | Errors.StoreFailure
        > => {
          // In account id order, like the guards, so both adapters name the same account.
          for (const entry of [...posting.entries].sort((a, b) => (a.accountId < b.accountId ? -1 : 1))) {
            const row = accountOf(posting.platformId, entry.accountId)
            if (row === undefined || row.account.currency !== entry.currency) {
              return [Effect.fail(unknownAccount(entry.accountId)), nothing]
            }
          }
          const fingerprint = Ledger.fingerprint(posting)
          const existing = keys.get(`${posting.platformId}\u0000${posting.idempotencyKey}`)
          if (existing !== undefined) {
            return postings.get(existing)?.fingerprint === fingerprint
              ? [
                  Effect.succeed({ postingId: existing, applied: false, balances: guardedBalances(posting.entries) }),
                  nothing
                ]
              : [Effect.fail(Ledger.IdempotencyKeyReused.of(posting.idempotencyKey)), nothing]
          }
          for (const move of movesOf(posting.entries)) {
            const row = accounts.get(move.accountId)
            if (row !== undefined && row.account.guarded && Ledger.available(balanceOf(row)) < move.debitsMinor) {
              const short = Ledger.InsufficientFunds.of(move.accountId)
              return [Effect.fail(short), nothing]
            }
          }
          // As the SQL adapter's CHECK constraint: no guarded balance passes the limit, nothing applies if one would.
          for (const move of movesOf(posting.entries)) {
            const row = accounts.get(move.accountId)
            if (
              row?.account.guarded === true &&
              !Ledger.withinBalanceLimit(balanceOf(posted(posting.status)(row, move)))
            ) {
              return [Effect.fail(Ledger.BalanceLimitExceeded.of()), nothing]
            }
          }
          // As on SQL, a balance path of an account that is not a guarded account of the posting refuses it all.
          const guarded = new Set(guardedBalances(posting.entries).map((balance) => balance.accountId))
          const stray = recorded?.balancesAt.find(({ accountId }) => !guarded.has(accountId))
          if (stray !== undefined) {
            const failure = Errors.StoreFailure.of(`ledger.postRecording: ${stray.accountId} is not a guarded account`)
            return [Effect.fail(failure), nothing]
          }
          return apply(posting, fingerprint, recorded)
        }
      )

    const settle = (platformId: Platform.PlatformId, postingId: Ledger.PostingId, to: "posted" | "released") =>
      Effect.flatten(
        state.write((): Outcome<void, Ledger.ReservationSettled> => {
          const posting = postings.get(postingId)
          if (posting === undefined || posting.platformId !== platformId || posting.status !== "pending") {
            return [Effect.fail(settled(postingId)), nothing]
          }
          const undos = [setEntry(postings, postingId, { ...posting, status: to })]
          for (const move of movesOf(posting.entries)) {
            undos.push(
              moveAccount(move, (row, { debitsMinor, creditsMinor }) => ({
                ...row,
                postedMinor: to === "posted" ? row.postedMinor + creditsMinor - debitsMinor : row.postedMinor,
                pendingDebitsMinor: row.pendingDebitsMinor - debitsMinor,
                pendingCreditsMinor: row.pendingCreditsMinor - creditsMinor
              }))
            )
          }
          return [Effect.void, () => undos.reverse().forEach((undo) => undo())]
        })
      )

    const known = (platformId: Platform.PlatformId, accountId: string) =>
      Effect.suspend(() => {
        const row = accountOf(platformId, accountId)
        return row === undefined ? Effect.fail(unknownAccount(accountId)) : Effect.succeed(row)
      })

    const reconciled = (row: AccountRow): Ledger.Balance => {
      let postedMinor = 0n
      let pendingDebitsMinor = 0n
      let pendingCreditsMinor = 0n
      for (const { postingId, amountMinor } of entriesByAccount.get(row.account.id) ?? []) {
        const status = postings.get(postingId)?.status
        if (status === "posted") postedMinor += amountMinor
        else if (status === "pending" && amountMinor < 0n) pendingDebitsMinor -= amountMinor
        else if (status === "pending") pendingCreditsMinor += amountMinor
      }
      return {
        accountId: row.account.id,
        currency: row.account.currency,
        postedMinor,
        pendingDebitsMinor,
        pendingCreditsMinor
      }
    }

    // Opens the valid accounts in one step: all of them, or none when one exists with another spec.
    const open = (valid: ReadonlyArray<Ledger.LedgerAccount>) =>
      Effect.flatten(
        state.write((): Outcome<void, Ledger.InvalidPosting> => {
          for (const account of valid) {
            const existing = accounts.get(account.id)?.account
            const same =
              existing === undefined ||
              (existing.platformId === account.platformId &&
                existing.currency === account.currency &&
                existing.guarded === account.guarded)
            if (!same) {
              const conflict = Ledger.InvalidPosting.of("account_exists_with_different_spec", { accountId: account.id })
              return [Effect.fail(conflict), nothing]
            }
          }
          const undos = valid
            .filter((account) => !accounts.has(account.id))
            .map((account) =>
              setEntry(accounts, account.id, {
                account,
                postedMinor: 0n,
                pendingDebitsMinor: 0n,
                pendingCreditsMinor: 0n
              })
            )
          return [Effect.void, undoAll(undos)]
        })
      )

    return Ledger.Ledger.of({
      openAccount: (account) => Effect.flatMap(Ledger.validateAccount(account), (valid) => open([valid])),
      openAccounts: (all) =>
        Effect.flatMap(
          Effect.forEach(all, (account) => Ledger.validateAccount(account)),
          open
        ),
      post: (posting) => Effect.flatMap(Ledger.validatePosting(posting), (valid) => Effect.flatten(post(valid))),
      postRecording: (posting, recorded) =>
        Effect.flatMap(Ledger.validatePosting(posting), (valid) => Effect.flatten(post(valid, recorded))).pipe(
          Effect.tap((result) => (result.applied ? deliveries(enqueueDeliveries([recorded.event])) : Effect.void))
        ),
      confirm: (platformId, postingId) => settle(platformId, postingId, "posted"),
      release: (platformId, postingId) => settle(platformId, postingId, "released"),
      balance: (platformId, accountId) => Effect.map(known(platformId, accountId), balanceOf),
      reconcile: (platformId, accountId) => Effect.map(known(platformId, accountId), reconciled),
      postedTotals: (platformId) =>
        Effect.sync(() => {
          const totals = new Map<string, bigint>()
          for (const posting of postings.values()) {
            if (posting.platformId !== platformId || posting.status !== "posted") continue
            for (const { currency, amountMinor } of posting.entries)
              totals.set(currency, (totals.get(currency) ?? 0n) + amountMinor)
          }
          return totals
        })
    })
  })
)

const balanceOf = (row: AccountRow): Ledger.Balance => ({
  accountId: row.account.id,
  currency: row.account.currency,
  postedMinor: row.postedMinor,
  pendingDebitsMinor: row.pendingDebitsMinor,
  pendingCreditsMinor: row.pendingCreditsMinor
})

/** Provides `Ledger` on the shared `MemoryState`. */
export const layer: Layer.Layer<Ledger.Ledger, never, MemoryState | Jobs.Jobs | PlatformRepo.PlatformRepo> =
  Layer.effect(Ledger.Ledger, make)
