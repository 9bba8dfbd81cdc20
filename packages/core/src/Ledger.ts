import { Context, type Effect, Either, Schema } from "effect"
import * as Currency from "./Currency.js"
import type { StoreFailure } from "./Errors.js"
import type { PlatformId } from "./Platform.js"
import * as ResourceId from "./ResourceId.js"

/**
 * The double-entry ledger (DESIGN §5). Every movement is one posting whose entries sum to zero per currency;
 * entries are immutable. Amounts are `bigint` minor units.
 *
 * Accounts are of two kinds:
 * - **guarded** (customer and platform internal accounts): their available balance never goes below zero, under
 *   any concurrency; a debit that would overdraw fails with `InsufficientFunds` and applies nothing.
 * - **system** (per platform and currency: rail clearing, fees, FX; see `SystemAccounts`): no guard and no hot
 *   balance row; their balance is derived from their entries, so postings that touch them do not serialise on one row.
 *
 * A posting is either settled at once (`posted`) or a reservation (`pending`): a reservation takes the debited
 * amounts out of the guarded accounts' available balance at once, and is later `commit`ted (becomes posted) or
 * `release`d (gives the funds back), exactly once. Every posting carries an idempotency key, unique per platform:
 * a replay with the same content returns the first result and applies nothing; a replay with other content fails
 * with `IdempotencyKeyReused`. A posting that failed applied nothing, so its key stays free.
 */

/** A guarded account would go below zero. Spec code `INSUFFICIENT_FUNDS` (400). */
export class InsufficientFunds extends Schema.TaggedError<InsufficientFunds>()("InsufficientFunds", {
  code: Schema.Literal("INSUFFICIENT_FUNDS"),
  reason: Schema.String,
  details: Schema.Struct({ accountId: Schema.String })
}) {}

/** The idempotency key was used before for a different posting. Code `CONFLICT` (409). */
export class IdempotencyKeyReused extends Schema.TaggedError<IdempotencyKeyReused>()("IdempotencyKeyReused", {
  code: Schema.Literal("CONFLICT"),
  reason: Schema.String,
  details: Schema.Struct({ idempotencyKey: Schema.String })
}) {}

/** A posting is invalid: entries do not sum to zero per currency, an account is unknown or of another platform. */
export class InvalidPosting extends Schema.TaggedError<InvalidPosting>()("InvalidPosting", {
  code: Schema.Literal("INVALID_INPUT"),
  reason: Schema.String
}) {}

/** The reservation is unknown or was already committed or released. */
export class ReservationSettled extends Schema.TaggedError<ReservationSettled>()("ReservationSettled", {
  code: Schema.Literal("CONFLICT"),
  reason: Schema.String,
  details: Schema.Struct({ postingId: Schema.String })
}) {}

/** `Posting:<uuid>`: one recorded movement, named by the ledger when it first applies it. */
export const PostingId = ResourceId.make("Posting")
export type PostingId = typeof PostingId.Type

/** What a ledger account is for. `guarded` accounts may never go below zero available. */
export interface LedgerAccount {
  readonly id: string
  readonly platformId: PlatformId
  /** A code of the currency registry (`Currency.registry`); every entry of the account is in it. */
  readonly currency: string
  readonly guarded: boolean
}

/** One side of a posting: a positive amount credits the account, a negative one debits it. Never zero. */
export interface Entry {
  readonly accountId: string
  readonly currency: string
  readonly amountMinor: bigint
}

/** A movement to record. */
export interface Posting {
  readonly platformId: PlatformId
  readonly idempotencyKey: string
  /** `posted` settles at once; `pending` reserves funds until `commit` or `release`. */
  readonly status: "posted" | "pending"
  readonly entries: ReadonlyArray<Entry>
  /** Free text kept with the posting, for statements and audits. */
  readonly description: string
}

/** The outcome of `post`: the posting's id and whether this call applied it (`false` on an idempotent replay). */
export interface PostResult {
  readonly postingId: PostingId
  readonly applied: boolean
}

/**
 * Balances of one account. `posted` is settled money; `pendingDebits` is reserved by pending postings;
 * `pendingCredits` is on its way in. Available (`balance` in the API) is `posted - pendingDebits`;
 * `totalBalance` is `posted`.
 */
export interface Balance {
  readonly accountId: string
  readonly currency: string
  readonly postedMinor: bigint
  readonly pendingDebitsMinor: bigint
  readonly pendingCreditsMinor: bigint
}

/** Available balance: settled money not reserved by pending debits. */
export const available = (balance: Balance): bigint => balance.postedMinor - balance.pendingDebitsMinor

/** The largest magnitude of one entry: what a PostgreSQL `bigint` holds, so every adapter accepts the same amounts. */
export const maxAmountMinor: bigint = 2n ** 63n - 1n

/** Limits every adapter enforces alike. */
export const limits = { idLength: 255, idempotencyKeyLength: 512, descriptionLength: 1000, entries: 100 } as const

const invalid = (reason: string) => new InvalidPosting({ code: "INVALID_INPUT", reason })

// NUL cannot be stored by PostgreSQL; refusing it here keeps every adapter equal.
const badText = (value: string, maxLength: number, emptyAllowed = false) =>
  (!emptyAllowed && value.length === 0) || value.length > maxLength || value.includes("\u0000")

/** Checks an account to open: an id of 1-255 characters without NUL, and a currency of the registry. */
export const validateAccount = (account: LedgerAccount): Either.Either<LedgerAccount, InvalidPosting> =>
  badText(account.id, limits.idLength)
    ? Either.left(invalid("An account id has 1 to 255 characters and no NUL"))
    : Currency.registry.has(account.currency)
      ? Either.right(account)
      : Either.left(invalid(`Unknown currency ${account.currency}`))

/**
 * Checks what can be checked without the store: a status of `posted` or `pending`; 2-100 entries, each non-zero
 * and within `maxAmountMinor`, summing to zero per currency; texts within their limits and without NUL. Accounts
 * are checked by the adapter.
 */
export const validatePosting = (posting: Posting): Either.Either<Posting, InvalidPosting> => {
  if (badText(posting.idempotencyKey, limits.idempotencyKeyLength)) {
    return Either.left(invalid("An idempotency key has 1 to 512 characters and no NUL"))
  }
  if (badText(posting.description, limits.descriptionLength, true)) {
    return Either.left(invalid("A description has at most 1000 characters and no NUL"))
  }
  if (posting.status !== "posted" && posting.status !== "pending") {
    return Either.left(invalid("A posting is posted or pending"))
  }
  if (posting.entries.length < 2 || posting.entries.length > limits.entries) {
    return Either.left(invalid("A posting has 2 to 100 entries"))
  }
  const sums = new Map<string, bigint>()
  for (const entry of posting.entries) {
    if (badText(entry.accountId, limits.idLength) || badText(entry.currency, limits.idLength)) {
      return Either.left(invalid("An entry names an account id and a currency of 1 to 255 characters without NUL"))
    }
    if (entry.amountMinor === 0n || entry.amountMinor > maxAmountMinor || entry.amountMinor < -maxAmountMinor) {
      return Either.left(invalid("An entry amount is non-zero and within the 64-bit range"))
    }
    sums.set(entry.currency, (sums.get(entry.currency) ?? 0n) + entry.amountMinor)
  }
  for (const [currency, sum] of sums) {
    if (sum !== 0n) return Either.left(invalid(`The entries in ${currency} sum to ${sum}, not zero`))
  }
  return Either.right(posting)
}

/**
 * The content of a posting that a replay must repeat: status, description and entries, the latter in a canonical
 * order, so the same entries listed in another order are the same posting. Exact (no hash): equal strings mean
 * equal content.
 */
export const fingerprint = (posting: Posting): string => {
  const entries = posting.entries
    .map((entry) => JSON.stringify([entry.accountId, entry.currency, entry.amountMinor.toString()]))
    .sort()
  return JSON.stringify([posting.status, posting.description, entries])
}

/**
 * The ledger port. `post`, `commit` and `release` are atomic and race-safe on every adapter, outside or inside a
 * `Store.transaction` (whose connection or undo log they join). Inside one, a failed call applies nothing and
 * leaves the unit of work usable.
 */
export class Ledger extends Context.Tag("@payrail/core/Ledger")<
  Ledger,
  {
    /**
     * Creates the account if it does not exist. Idempotent: opening an existing id with the same spec succeeds;
     * with another platform, currency or kind it fails with `InvalidPosting`, as does an invalid spec.
     */
    readonly openAccount: (account: LedgerAccount) => Effect.Effect<void, InvalidPosting | StoreFailure>
    /**
     * Records a posting atomically: all entries or none. Checks, in this order: `validatePosting`, then every entry
     * names an account of the platform in the entry's currency (`InvalidPosting`), then the idempotency key (a
     * replay answers `applied: false` with the first posting's id; other content fails with
     * `IdempotencyKeyReused`), then the guards: for each guarded account, its available balance must cover the sum
     * of its debit entries in this posting, checked and applied in one step (`InsufficientFunds` names the account).
     */
    readonly post: (
      posting: Posting
    ) => Effect.Effect<PostResult, InsufficientFunds | IdempotencyKeyReused | InvalidPosting | StoreFailure>
    /** Settles a pending posting: its entries become posted. Exactly once; a second call fails. */
    readonly commit: (platformId: PlatformId, postingId: PostingId) => Effect.Effect<void, ReservationSettled | StoreFailure>
    /** Cancels a pending posting: reserved funds become available again. Exactly once; a second call fails. */
    readonly release: (platformId: PlatformId, postingId: PostingId) => Effect.Effect<void, ReservationSettled | StoreFailure>
    /** Balances of the account; an unknown account, or one of another platform, fails with `InvalidPosting`. */
    readonly balance: (platformId: PlatformId, accountId: string) => Effect.Effect<Balance, InvalidPosting | StoreFailure>
    /**
     * The account's balances recomputed from its entries alone (posted postings' entries, and pending postings'
     * debits and credits), ignoring any running balance the adapter keeps. For audits and invariant checks: it
     * equals `balance` whenever the ledger is consistent.
     */
    readonly reconcile: (platformId: PlatformId, accountId: string) => Effect.Effect<Balance, InvalidPosting | StoreFailure>
    /**
     * Sum of posted entries per currency across the platform, for invariant checks: every currency sums to zero.
     */
    readonly postedTotals: (platformId: PlatformId) => Effect.Effect<ReadonlyMap<string, bigint>, StoreFailure>
  }
>() {}
