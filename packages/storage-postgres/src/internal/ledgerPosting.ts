import type * as SqlClient from "@effect/sql/SqlClient"
import type * as Statement from "@effect/sql/Statement"
import * as SqlSchema from "@effect/sql/SqlSchema"
import { DomainEvent, Errors, Ledger, type RecordedEvent } from "@payrail/core"
import { DateTime, Effect, Schema } from "effect"
import { jsonText } from "./encoding.js"

/** A `RecordedEvent` as the statement takes it: the event encoded, its data completed in SQL. */
const Recorded = Schema.Struct({
  event: DomainEvent.DomainEvent,
  postingIdAt: Schema.Array(Schema.Array(Schema.String)),
  balancesAt: Schema.Array(
    Schema.Struct({
      accountId: Schema.String,
      availableAt: Schema.Array(Schema.String),
      postedAt: Schema.Array(Schema.String)
    })
  )
})

/** The arguments of `payrail_ledger_post`: a posting as parallel arrays of its entries, amounts as text. */
const PostRequest = Schema.Struct({
  platformId: Schema.String,
  idempotencyKey: Schema.String,
  fingerprint: Schema.String,
  status: Schema.Literal("posted", "pending"),
  description: Schema.String,
  createdAt: Schema.DateTimeUtc,
  accountIds: Schema.Array(Schema.String),
  currencies: Schema.Array(Schema.String),
  amounts: Schema.Array(Schema.BigInt),
  recorded: Schema.UndefinedOr(Recorded)
})

const PostRow = Schema.Struct({
  outcome: Schema.Literal(
    "applied",
    "replayed",
    "key_reused",
    "unknown_account",
    "invalid",
    "insufficient",
    "balance_limit"
  ),
  posting_id: Schema.NullOr(Ledger.PostingId),
  detail: Schema.NullOr(Schema.String),
  // The guarded accounts' balances as parallel arrays in account id order, amounts as text (`pg` and PGlite would
  // otherwise read `bigint` as strings or as lossy numbers respectively).
  balance_account_ids: Schema.Array(Schema.String),
  balance_posted_minor: Schema.Array(Schema.BigInt),
  balance_pending_debits_minor: Schema.Array(Schema.BigInt),
  balance_pending_credits_minor: Schema.Array(Schema.BigInt)
})
type PostRow = typeof PostRow.Type

/** What a posting can fail with. */
export type PostFailure =
  | Ledger.BalanceLimitExceeded
  | Ledger.InsufficientFunds
  | Ledger.IdempotencyKeyReused
  | Ledger.InvalidPosting
  | Errors.StoreFailure

/** `InvalidPosting` naming an account the platform does not have (in that currency). */
export const unknownAccount = (accountId: string) => Ledger.InvalidPosting.of("account_not_found", { accountId })

// Every guarded account of a posting is one of its entries' accounts, in the entry's currency (the function checked).
const balancesOf = (posting: Ledger.Posting, row: PostRow): ReadonlyArray<Ledger.Balance> =>
  row.balance_account_ids.map((accountId, i) => ({
    accountId,
    currency: posting.entries.find((entry) => entry.accountId === accountId)?.currency ?? "",
    postedMinor: row.balance_posted_minor[i] ?? 0n,
    pendingDebitsMinor: row.balance_pending_debits_minor[i] ?? 0n,
    pendingCreditsMinor: row.balance_pending_credits_minor[i] ?? 0n
  }))

const outcome = (posting: Ledger.Posting, row: PostRow): Effect.Effect<Ledger.PostResult, PostFailure> => {
  switch (row.outcome) {
    case "applied":
    case "replayed":
      return row.posting_id === null
        ? Effect.fail(Errors.StoreFailure.of("ledger.post: no posting id"))
        : Effect.succeed({
            postingId: row.posting_id,
            applied: row.outcome === "applied",
            balances: balancesOf(posting, row)
          })
    case "key_reused":
      return Ledger.IdempotencyKeyReused.of(posting.idempotencyKey)
    case "insufficient":
      return Ledger.InsufficientFunds.of(row.detail ?? "")
    case "balance_limit":
      return Ledger.BalanceLimitExceeded.of()
    case "unknown_account":
      return unknownAccount(row.detail ?? "")
    case "invalid":
      // The SQL function re-checks what `Ledger.validatePosting` checked first; these only guard direct SQL callers.
      return Ledger.InvalidPosting.of(row.detail?.includes("sum") ? "entries_must_sum_to_zero" : "status_invalid")
  }
}

/** How a posting statement is extended: the event to record, and what else to write when the posting applied. */
export interface PostOptions {
  /** The operation named by a `StoreFailure`. */
  readonly operation: string
  readonly recorded?: RecordedEvent.RecordedEvent | undefined
  /**
   * Further CTEs (each starting with a comma) that read the `posted` CTE, the function's answer, and write only
   * when its `outcome` is `applied`: they run in the posting's statement, so they commit or fail with it.
   */
  readonly alongside?: Effect.Effect<Statement.Fragment, unknown> | undefined
}

/**
 * The posting statement of `PgLedger` (one call of `payrail_ledger_post`, migrations `0009_ledger_post_balances` and
 * `0013_ledger_balance_bounds`), shared with the repositories that write beside a posting: a posting, its completed
 * event and the `alongside` writes are one statement, so they apply together or not at all and no lock is held across
 * a round trip. The posting must be valid (`Ledger.validatePosting`).
 */
export const makePost = (sql: SqlClient.SqlClient) => {
  const results = sql.literal(`outcome, posting_id, detail, balance_account_ids,
      balance_posted_minor::text[] AS balance_posted_minor,
      balance_pending_debits_minor::text[] AS balance_pending_debits_minor,
      balance_pending_credits_minor::text[] AS balance_pending_credits_minor`)

  // With an event to record: one statement still. The function posts; when it applied, the event's data is
  // completed step by step (one CTE per figure, each reading the function's answer) and inserted into the outbox.
  // A balance path of an account the answer lacks makes the data NULL, which the outbox refuses: nothing applies.
  const recording = (recorded: typeof Recorded.Encoded, json: string) => {
    const steps = [
      ...recorded.postingIdAt.map((path) => sql`jsonb_set(d.data, ${path}::text[], to_jsonb(p.posting_id))`),
      ...recorded.balancesAt.flatMap(({ accountId, availableAt, postedAt }) => {
        const at = sql`array_position(p.balance_account_ids, ${accountId}::text)`
        return [
          sql`jsonb_set(d.data, ${availableAt}::text[],
              to_jsonb(p.balance_posted_minor[${at}] - p.balance_pending_debits_minor[${at}]))`,
          sql`jsonb_set(d.data, ${postedAt}::text[], to_jsonb(p.balance_posted_minor[${at}]))`
        ]
      })
    ]
    const ctes = steps.map(
      (step, index) => sql`, ${sql(`d${index + 1}`)} AS (SELECT ${step} AS data FROM ${sql(`d${index}`)} d, posted p)`
    )
    const { event } = recorded
    return sql`, d0 AS (SELECT ${json}::jsonb AS data FROM posted WHERE outcome = 'applied')
        ${sql.join("", false)(ctes)}, recorded AS (INSERT INTO outbox (id, platform_id, type, timestamp, data)
          SELECT ${event.id}, ${event.platformId}, ${event.type}, ${event.timestamp}::timestamptz, data
          FROM ${sql(`d${steps.length}`)})`
  }

  const postOnce = (alongside: Statement.Fragment | undefined) =>
    SqlSchema.single({
      Request: PostRequest,
      Result: PostRow,
      execute: (request) => {
        const call = sql`payrail_ledger_post(${request.platformId},
          ${request.idempotencyKey}, ${request.fingerprint}, ${request.status}, ${request.description},
          ${request.createdAt}::timestamptz, ${request.accountIds}::text[], ${request.currencies}::text[],
          ${request.amounts}::bigint[])`
        const { recorded } = request
        if (recorded === undefined && alongside === undefined) return sql`SELECT ${results} FROM ${call}`
        const extra = alongside ?? sql.literal("")
        if (recorded === undefined) {
          return sql`WITH posted AS MATERIALIZED (SELECT * FROM ${call}) ${extra} SELECT ${results} FROM posted`
        }
        return Effect.flatMap(
          jsonText(recorded.event.data),
          (json) => sql`WITH posted AS MATERIALIZED (SELECT * FROM ${call}) ${recording(recorded, json)} ${extra}
            SELECT ${results} FROM posted`
        )
      }
    })

  const plain = postOnce(undefined)

  // The hot path: one statement, and no more Effect steps than needed (each costs CPU that the database, on the
  // same cores, would otherwise get).
  return (posting: Ledger.Posting, options: PostOptions): Effect.Effect<Ledger.PostResult, PostFailure> => {
    const accountIds: Array<string> = []
    const currencies: Array<string> = []
    const amounts: Array<bigint> = []
    for (const entry of posting.entries) {
      accountIds.push(entry.accountId)
      currencies.push(entry.currency)
      amounts.push(entry.amountMinor)
    }
    const run = (createdAt: DateTime.Utc, statement: typeof plain) =>
      statement({
        platformId: posting.platformId,
        idempotencyKey: posting.idempotencyKey,
        fingerprint: Ledger.fingerprint(posting),
        status: posting.status,
        description: posting.description,
        createdAt,
        accountIds,
        currencies,
        amounts,
        recorded: options.recorded
      })
    return DateTime.now.pipe(
      Effect.flatMap((createdAt) =>
        options.alongside === undefined
          ? run(createdAt, plain)
          : Effect.flatMap(options.alongside, (fragment) => run(createdAt, postOnce(fragment)))
      ),
      Effect.mapError(Errors.StoreFailure.wrap(options.operation)),
      Effect.flatMap((row) => outcome(posting, row))
    )
  }
}
