import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import { Errors, Ledger, type Platform } from "@payrail/core"
import { Array as Arr, type Context, Effect, Layer, Option, Schema } from "effect"
import { makePost, unknownAccount } from "../internal/ledgerPosting.js"
import { raised } from "../internal/sqlState.js"
import * as WriteBehind from "../internal/writeBehind.js"

const differentSpec = "account_exists_with_different_spec"

// Amounts cross the wire as decimal text both ways (`Schema.BigInt`): `pg` and PGlite would otherwise read `bigint`
// columns as strings or as lossy JavaScript numbers respectively.
const Amounts = Schema.Struct({
  posted_minor: Schema.BigInt,
  pending_debits_minor: Schema.BigInt,
  pending_credits_minor: Schema.BigInt
}).pipe(
  Schema.rename({
    posted_minor: "postedMinor",
    pending_debits_minor: "pendingDebitsMinor",
    pending_credits_minor: "pendingCreditsMinor"
  })
)

const AccountKey = Schema.Struct({ platformId: Schema.String, accountId: Schema.String })

/** A ledger account's row: guarded accounts carry running balances, system accounts none (nulls). */
const AccountRow = Schema.Struct({
  currency: Schema.String,
  guarded: Schema.Boolean,
  posted_minor: Schema.NullOr(Schema.BigInt),
  pending_debits_minor: Schema.NullOr(Schema.BigInt),
  pending_credits_minor: Schema.NullOr(Schema.BigInt)
}).pipe(
  Schema.rename({
    posted_minor: "postedMinor",
    pending_debits_minor: "pendingDebitsMinor",
    pending_credits_minor: "pendingCreditsMinor"
  })
)

const Spec = Schema.Struct({
  id: Schema.String,
  platformId: Schema.String,
  currency: Schema.String,
  guarded: Schema.Boolean
})

const storeFailureUnless =
  (operation: string) =>
  <E>(error: E): Ledger.InvalidPosting | Errors.StoreFailure =>
    error instanceof Ledger.InvalidPosting ? error : Errors.StoreFailure.of(operation, error)

/**
 * `Ledger` on the `ledger_accounts`, `ledger_postings` and `ledger_entries` tables (migration `0005_ledger`).
 *
 * Guarantees: a posting is one call of the `payrail_ledger_post` function (migrations `0009_ledger_post_balances`,
 * `0013_ledger_balance_bounds`),
 * a single statement that also answers the guarded accounts' new balances (and, for `postRecording`, records the
 * completed event in the same statement), so it is atomic on its own and joins the ambient unit of work (its
 * connection) inside `UnitOfWork.transaction`; a posting that fails for a domain reason (`InvalidPosting`,
 * `IdempotencyKeyReused`, `InsufficientFunds`, `BalanceLimitExceeded`: the CHECK constraint
 * `ledger_accounts_balance_bounds`, caught in the function) writes nothing and leaves that unit of work usable. Guarded accounts are debited by one conditional `UPDATE` (`available >= debits`) in
 * account id order, so no concurrency overdraws one or deadlocks two postings. System accounts are never written:
 * their balances are sums over their entries, so postings touching them run in parallel. The idempotency key is
 * a unique constraint: of concurrent postings with one key exactly one applies, the others answer as replays.
 * `confirm`/`release` are guarded transitions from `pending`, so exactly one caller wins. Units of work must run
 * at READ COMMITTED (the default).
 */
export const make: Effect.Effect<Context.Tag.Service<Ledger.Ledger>, never, SqlClient.SqlClient> = Effect.map(
  SqlClient.SqlClient,
  (sql) => {
    const derived = SqlSchema.single({
      Request: Schema.String,
      Result: Amounts,
      execute: (accountId) => sql`SELECT
          coalesce(sum(e.amount_minor) FILTER (WHERE p.status = 'posted'), 0)::text AS posted_minor,
          coalesce(sum(-e.amount_minor) FILTER (WHERE p.status = 'pending' AND e.amount_minor < 0), 0)::text AS pending_debits_minor,
          coalesce(sum(e.amount_minor) FILTER (WHERE p.status = 'pending' AND e.amount_minor > 0), 0)::text AS pending_credits_minor
        FROM ledger_entries e JOIN ledger_postings p ON p.id = e.posting_id
        WHERE e.account_id = ${accountId}`
    })

    const account = SqlSchema.findOne({
      Request: AccountKey,
      Result: AccountRow,
      execute: ({ platformId, accountId }) => sql`SELECT currency, guarded, posted_minor::text AS posted_minor,
          pending_debits_minor::text AS pending_debits_minor, pending_credits_minor::text AS pending_credits_minor
        FROM ledger_accounts WHERE id = ${accountId} AND platform_id = ${platformId}`
    })

    const fromDerived = (accountId: string, currency: string) =>
      Effect.map(derived(accountId), (amounts) => ({ accountId, currency, ...amounts }))

    const known = (platformId: Platform.PlatformId, accountId: string) =>
      Effect.flatMap(
        account({ platformId, accountId }),
        Option.match({ onNone: () => unknownAccount(accountId), onSome: Effect.succeed })
      )

    // One multi-row INSERT of the accounts not there yet, and a check that refuses one there with another spec:
    // sent with the unit of work's other writes (`WriteBehind`). The check reads the accounts as the statement
    // began: every one the INSERT skips, but for one opened by a transaction that committed meanwhile.
    const insertAccounts = WriteBehind.encoded(sql, {
      Request: Schema.NonEmptyArray(Spec),
      operation: "ledger.openAccounts",
      steps: (specs) =>
        Effect.succeed((name: (step: string) => string): WriteBehind.Steps => {
          const rows = specs.map((spec) => {
            const opening = spec.guarded ? "0" : null
            return {
              id: spec.id,
              platform_id: spec.platformId,
              currency: spec.currency,
              guarded: spec.guarded,
              posted_minor: opening,
              pending_debits_minor: opening,
              pending_credits_minor: opening
            }
          })
          const wanted = sql.csv(
            specs.map((spec) => sql`(${spec.id}, ${spec.platformId}, ${spec.currency}, ${spec.guarded}::boolean)`)
          )
          return [
            [name("accounts"), sql`INSERT INTO ledger_accounts ${sql.insert(rows)} ON CONFLICT (id) DO NOTHING`],
            [
              name("checked"),
              sql`UPDATE ledger_accounts l SET guarded = l.guarded
                FROM (VALUES ${wanted}) AS w (id, platform_id, currency, guarded)
                WHERE l.id = w.id AND CASE
                  WHEN (l.platform_id, l.currency, l.guarded) IS DISTINCT FROM (w.platform_id, w.currency, w.guarded)
                  THEN payrail_fail(${differentSpec}, l.id) ELSE false END`
            ]
          ]
        }),
      recognize: (_, error) =>
        Option.map(raised(error, differentSpec), (accountId) => Ledger.InvalidPosting.of(differentSpec, { accountId }))
    })

    const openAccounts = (accounts: ReadonlyArray<Ledger.LedgerAccount>) =>
      Effect.flatMap(
        Effect.forEach(accounts, (account) => Ledger.validateAccount(account)),
        (valid) => (Arr.isNonEmptyReadonlyArray(valid) ? insertAccounts(valid) : Effect.void)
      )

    const settleOnce = SqlSchema.single({
      Request: Schema.Struct({
        platformId: Schema.String,
        postingId: Schema.String,
        status: Schema.Literal("posted", "released")
      }),
      Result: Schema.Struct({ settled: Schema.Boolean }).pipe(Schema.pluck("settled")),
      execute: ({ platformId, postingId, status }) =>
        sql`SELECT payrail_ledger_settle(${platformId}, ${postingId}, ${status}) AS settled`
    })

    const settle =
      (operation: string, to: "posted" | "released") =>
      (platformId: Platform.PlatformId, postingId: Ledger.PostingId) =>
        settleOnce({ platformId, postingId, status: to }).pipe(
          Effect.mapError(Errors.StoreFailure.wrap(operation)),
          Effect.flatMap((settled) => (settled ? Effect.void : Effect.fail(Ledger.ReservationSettled.of(postingId))))
        )

    const totals = SqlSchema.findAll({
      Request: Schema.String,
      Result: Schema.Struct({ currency: Schema.String, total: Schema.BigInt }),
      execute: (platformId) => sql`SELECT e.currency, sum(e.amount_minor)::text AS total
        FROM ledger_postings p JOIN ledger_entries e ON e.posting_id = p.id
        WHERE p.platform_id = ${platformId} AND p.status = 'posted'
        GROUP BY e.currency`
    })

    const post = makePost(sql)

    return Ledger.Ledger.of({
      // One account is a batch of one: the same statement, queued the same way, refusing another spec the same way.
      openAccount: (spec) => openAccounts([spec]),

      openAccounts,

      post: (posting) =>
        Effect.flatMap(Ledger.validatePosting(posting), (valid) => post(valid, { operation: "ledger.post" })),
      postRecording: (posting, recorded) =>
        Effect.flatMap(Ledger.validatePosting(posting), (valid) =>
          post(valid, { operation: "ledger.postRecording", recorded })
        ),
      confirm: settle("ledger.confirm", "posted"),
      release: settle("ledger.release", "released"),

      balance: (platformId, accountId) =>
        Effect.flatMap(known(platformId, accountId), (row) =>
          row.guarded
            ? Effect.succeed({
                accountId,
                currency: row.currency,
                postedMinor: row.postedMinor ?? 0n,
                pendingDebitsMinor: row.pendingDebitsMinor ?? 0n,
                pendingCreditsMinor: row.pendingCreditsMinor ?? 0n
              })
            : fromDerived(accountId, row.currency)
        ).pipe(Effect.mapError(storeFailureUnless("ledger.balance"))),

      reconcile: (platformId, accountId) =>
        Effect.flatMap(known(platformId, accountId), (row) => fromDerived(accountId, row.currency)).pipe(
          Effect.mapError(storeFailureUnless("ledger.reconcile"))
        ),

      postedTotals: (platformId) =>
        totals(platformId).pipe(
          Effect.map((rows) => new Map(rows.map((row) => [row.currency, row.total] as const))),
          Effect.mapError(Errors.StoreFailure.wrap("ledger.postedTotals"))
        )
    })
  }
)

/** Provides `Ledger` on the ambient `SqlClient`; the schema must be migrated (see `Migrations`). */
export const layer: Layer.Layer<Ledger.Ledger, never, SqlClient.SqlClient> = Layer.effect(Ledger.Ledger, make)
