import * as SqlClient from "@effect/sql/SqlClient"
import { Errors, Ledger, type Platform } from "@payrail/core"
import { Clock, type Context, Effect, Layer, Schema } from "effect"

// Amounts cross the wire as decimal text both ways: `pg` and PGlite would otherwise read `bigint` columns as
// strings or as lossy JavaScript numbers respectively.
const Amounts = {
  posted: Schema.BigInt,
  pending_debits: Schema.BigInt,
  pending_credits: Schema.BigInt
}

const PostRow = Schema.Struct({
  outcome: Schema.Literal("applied", "replayed", "key_reused", "unknown_account", "invalid", "insufficient"),
  posting_id: Schema.NullOr(Ledger.PostingId),
  detail: Schema.NullOr(Schema.String)
})
type PostRow = typeof PostRow.Type
type PostFailure = Ledger.InsufficientFunds | Ledger.IdempotencyKeyReused | Ledger.InvalidPosting | Errors.StoreFailure
const decodePost = Schema.decodeUnknown(Schema.Tuple(PostRow))
const decodeAccount = Schema.decodeUnknown(
  Schema.Array(Schema.Struct({ platform_id: Schema.String, currency: Schema.String, guarded: Schema.Boolean }))
)
const decodeGuarded = Schema.decodeUnknown(
  Schema.Array(
    Schema.Struct({
      currency: Schema.String,
      guarded: Schema.Boolean,
      posted: Schema.NullOr(Schema.BigInt),
      pending_debits: Schema.NullOr(Schema.BigInt),
      pending_credits: Schema.NullOr(Schema.BigInt)
    })
  )
)
const decodeDerived = Schema.decodeUnknown(Schema.Tuple(Schema.Struct(Amounts)))
const decodeTotals = Schema.decodeUnknown(Schema.Array(Schema.Struct({ currency: Schema.String, total: Schema.BigInt })))
const decodeSettled = Schema.decodeUnknown(Schema.Tuple(Schema.Struct({ settled: Schema.Boolean })))

const unknownAccount = (accountId: string) => Ledger.InvalidPosting.of("account_not_found", { accountId })
const storeFailureUnless =
  (operation: string) =>
  <E>(error: E): Ledger.InvalidPosting | Errors.StoreFailure =>
    error instanceof Ledger.InvalidPosting ? error : Errors.StoreFailure.of(operation, error)

/**
 * `Ledger` on the `ledger_accounts`, `ledger_postings` and `ledger_entries` tables (migration `0005_ledger`).
 *
 * Guarantees: a posting is one call of the `payrail_ledger_post` function, a single statement, so it is atomic on
 * its own and joins the ambient unit of work (its connection) inside `UnitOfWork.transaction`; a posting that fails
 * for a domain reason (`InvalidPosting`, `IdempotencyKeyReused`, `InsufficientFunds`) writes nothing and leaves
 * that unit of work usable. Guarded accounts are debited by one conditional `UPDATE` (`available >= debits`) in
 * account id order, so no concurrency overdraws one or deadlocks two postings. System accounts are never written:
 * their balances are sums over their entries, so postings touching them run in parallel. The idempotency key is
 * a unique constraint: of concurrent postings with one key exactly one applies, the others answer as replays.
 * `commit`/`release` are guarded transitions from `pending`, so exactly one caller wins. Units of work must run
 * at READ COMMITTED (the default).
 */
export const make: Effect.Effect<Context.Tag.Service<Ledger.Ledger>, never, SqlClient.SqlClient> = Effect.map(
  SqlClient.SqlClient,
  (sql) => {
    const derived = (accountId: string) =>
      sql`SELECT
          coalesce(sum(e.amount_minor) FILTER (WHERE p.status = 'posted'), 0)::text AS posted,
          coalesce(sum(-e.amount_minor) FILTER (WHERE p.status = 'pending' AND e.amount_minor < 0), 0)::text AS pending_debits,
          coalesce(sum(e.amount_minor) FILTER (WHERE p.status = 'pending' AND e.amount_minor > 0), 0)::text AS pending_credits
        FROM ledger_entries e JOIN ledger_postings p ON p.id = e.posting_id
        WHERE e.account_id = ${accountId}`.pipe(Effect.flatMap(decodeDerived))

    const account = (platformId: Platform.PlatformId, accountId: string) =>
      sql`SELECT currency, guarded, posted_minor::text AS posted, pending_debits_minor::text AS pending_debits,
          pending_credits_minor::text AS pending_credits
        FROM ledger_accounts WHERE id = ${accountId} AND platform_id = ${platformId}`.pipe(Effect.flatMap(decodeGuarded))

    const fromDerived = (accountId: string, currency: string) =>
      Effect.map(derived(accountId), ([row]) => ({
        accountId,
        currency,
        postedMinor: row.posted,
        pendingDebitsMinor: row.pending_debits,
        pendingCreditsMinor: row.pending_credits
      }))

    const settle = (operation: string, to: "posted" | "released") => (platformId: Platform.PlatformId, postingId: Ledger.PostingId) =>
      sql`SELECT payrail_ledger_settle(${platformId}, ${postingId}, ${to}) AS settled`.pipe(
        Effect.flatMap(decodeSettled),
        Effect.mapError(Errors.StoreFailure.wrap(operation)),
        Effect.flatMap(([{ settled }]) =>
          settled
            ? Effect.void
            : Effect.fail(
                Ledger.ReservationSettled.of(postingId)
              )
        )
      )

    const outcome = (posting: Ledger.Posting, row: PostRow): Effect.Effect<Ledger.PostResult, PostFailure> => {
      switch (row.outcome) {
        case "applied":
        case "replayed":
          return row.posting_id === null
            ? Effect.fail(Errors.StoreFailure.of("ledger.post: no posting id"))
            : Effect.succeed({ postingId: row.posting_id, applied: row.outcome === "applied" })
        case "key_reused":
          return Ledger.IdempotencyKeyReused.of(posting.idempotencyKey)
        case "insufficient":
          return Ledger.InsufficientFunds.of(row.detail ?? "")
        case "unknown_account":
          return unknownAccount(row.detail ?? "")
        case "invalid":
          // The SQL function re-checks what `Ledger.validatePosting` checked first; these only guard direct SQL callers.
          return Ledger.InvalidPosting.of(row.detail?.includes("sum") ? "entries_must_sum_to_zero" : "status_invalid")
      }
    }

    // The hot path: one statement, and no more Effect steps than needed (each costs CPU that the database, on the
    // same cores, would otherwise get).
    const post = (posting: Ledger.Posting) => {
      const accountIds: Array<string> = []
      const currencies: Array<string> = []
      const amounts: Array<string> = []
      for (const entry of posting.entries) {
        accountIds.push(entry.accountId)
        currencies.push(entry.currency)
        amounts.push(entry.amountMinor.toString())
      }
      return Clock.currentTimeMillis.pipe(
        Effect.flatMap(
          (now) => sql`SELECT outcome, posting_id, detail FROM payrail_ledger_post(${posting.platformId},
            ${posting.idempotencyKey}, ${Ledger.fingerprint(posting)}, ${posting.status}, ${posting.description},
            ${new Date(now).toISOString()}::timestamptz, ${accountIds}::text[], ${currencies}::text[], ${amounts}::bigint[])`
        ),
        Effect.flatMap(decodePost),
        Effect.mapError(Errors.StoreFailure.wrap("ledger.post")),
        Effect.flatMap(([row]) => outcome(posting, row))
      )
    }

    return Ledger.Ledger.of({
      openAccount: (spec) =>
        Effect.gen(function* () {
          const valid = yield* Ledger.validateAccount(spec)
          const opening = valid.guarded ? "0" : null
          const inserted = yield* sql`INSERT INTO ledger_accounts
              (id, platform_id, currency, guarded, posted_minor, pending_debits_minor, pending_credits_minor)
            VALUES (${valid.id}, ${valid.platformId}, ${valid.currency}, ${valid.guarded},
              ${opening}::bigint, ${opening}::bigint, ${opening}::bigint)
            ON CONFLICT (id) DO NOTHING RETURNING id`.pipe(Effect.mapError(Errors.StoreFailure.wrap("ledger.openAccount")))
          if (inserted.length > 0) return
          const [existing] = yield* sql`SELECT platform_id, currency, guarded FROM ledger_accounts WHERE id = ${valid.id}`.pipe(
            Effect.flatMap(decodeAccount),
            Effect.mapError(Errors.StoreFailure.wrap("ledger.openAccount"))
          )
          const same =
            existing !== undefined &&
            existing.platform_id === valid.platformId &&
            existing.currency === valid.currency &&
            existing.guarded === valid.guarded
          if (!same) return yield* Ledger.InvalidPosting.of("account_exists_with_different_spec", { accountId: valid.id })
        }),

      post: (posting) => Effect.flatMap(Ledger.validatePosting(posting), post),
      confirm: settle("ledger.confirm", "posted"),
      release: settle("ledger.release", "released"),

      balance: (platformId, accountId) =>
        Effect.gen(function* () {
          const [row] = yield* account(platformId, accountId)
          if (row === undefined) return yield* unknownAccount(accountId)
          if (!row.guarded) return yield* fromDerived(accountId, row.currency)
          return {
            accountId,
            currency: row.currency,
            postedMinor: row.posted ?? 0n,
            pendingDebitsMinor: row.pending_debits ?? 0n,
            pendingCreditsMinor: row.pending_credits ?? 0n
          }
        }).pipe(Effect.mapError(storeFailureUnless("ledger.balance"))),

      reconcile: (platformId, accountId) =>
        Effect.gen(function* () {
          const [row] = yield* account(platformId, accountId)
          if (row === undefined) return yield* unknownAccount(accountId)
          return yield* fromDerived(accountId, row.currency)
        }).pipe(Effect.mapError(storeFailureUnless("ledger.reconcile"))),

      postedTotals: (platformId) =>
        sql`SELECT e.currency, sum(e.amount_minor)::text AS total
          FROM ledger_postings p JOIN ledger_entries e ON e.posting_id = p.id
          WHERE p.platform_id = ${platformId} AND p.status = 'posted'
          GROUP BY e.currency`.pipe(
          Effect.flatMap(decodeTotals),
          Effect.map((rows) => new Map(rows.map((row) => [row.currency, row.total] as const))),
          Effect.mapError(Errors.StoreFailure.wrap("ledger.postedTotals"))
        )
    })
  }
)

/** Provides `Ledger` on the ambient `SqlClient`; the schema must be migrated (see `Migrations`). */
export const layer: Layer.Layer<Ledger.Ledger, never, SqlClient.SqlClient> = Layer.effect(Ledger.Ledger, make)
