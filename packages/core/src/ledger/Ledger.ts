import { Context, type Effect, Either, Option } from "effect"
import {
  type BalanceLimitExceeded,
  type IdempotencyKeyReused,
  type InsufficientFunds,
  InvalidPosting,
  type ReservationSettled
} from "./LedgerErrors.js"
import { Currency, ResourceId, type StoreFailure } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import type { RecordedEvent } from "./RecordedEvent.js"

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
 * amounts out of the guarded accounts' available balance at once, and is later `confirm`ed (becomes posted) or
 * `release`d (gives the funds back), exactly once. Every posting carries an idempotency key, unique per platform:
 * a replay with the same content returns the first result and applies nothing; a replay with other content fails
 * with `IdempotencyKeyReused`. A posting that failed applied nothing, so its key stays free.
 *
 * Every balance of a guarded account stays within `balanceMinorMax`, and so does posted plus pending credits (what
 * confirming every reservation would leave): a posting that would pass it fails with `BalanceLimitExceeded` and
 * applies nothing.
 */
export {
  BalanceLimitExceeded,
  IdempotencyKeyReused,
  InsufficientFunds,
  InvalidPosting,
  ReservationSettled
} from "./LedgerErrors.js"

/** `Posting:<uuid>`: one recorded movement, named by the ledger when it first applies it. */
export const PostingId = ResourceId.make("Posting")
export type PostingId = typeof PostingId.Type

/** What a ledger account is for. `guarded` accounts may never go below zero available. */
export interface LedgerAccount {
  readonly id: string
  readonly platformId: Platform.PlatformId
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
  readonly platformId: Platform.PlatformId
  readonly idempotencyKey: string
  /** `posted` settles at once; `pending` reserves funds until `confirm` or `release`. */
  readonly status: "posted" | "pending"
  readonly entries: ReadonlyArray<Entry>
  /** Free text kept with the posting, for statements and audits. */
  readonly description: string
}

/**
 * The outcome of `post`: the posting's id, whether this call applied it (`false` on an idempotent replay), and the
 * balances of the posting's guarded accounts, one per account in account id order (byte order). When applied, they
 * are the balances this posting left, read in the same step that changed them (no concurrent posting in between);
 * on a replay, the balances as they are now. System accounts are not listed: their balances are sums over their
 * entries, which `balance` computes on demand.
 */
export interface PostResult {
  readonly postingId: PostingId
  readonly applied: boolean
  readonly balances: ReadonlyArray<Balance>
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

/** The balance of an account with nothing posted to it. */
export const zeroBalance = (accountId: string, currency: string): Balance => ({
  accountId,
  currency,
  postedMinor: 0n,
  pendingDebitsMinor: 0n,
  pendingCreditsMinor: 0n
})

/** The balance of `accountId` that `post` answered with, if it is one of the posting's guarded accounts. */
export const balanceAfter = (result: PostResult, accountId: string): Option.Option<Balance> =>
  Option.fromNullable(result.balances.find((balance) => balance.accountId === accountId))

/** Available balance: settled money not reserved by pending debits. */
export const available = (balance: Balance): bigint => balance.postedMinor - balance.pendingDebitsMinor

/** The largest magnitude of one entry: what a PostgreSQL `bigint` holds, so every adapter accepts the same amounts. */
export const amountMinorMax: bigint = 2n ** 63n - 1n

/**
 * The largest balance of a guarded account, and of its posted balance plus pending credits: `Number.MAX_SAFE_INTEGER`,
 * the largest amount the API carries exactly (`Money.toWire`), so every balance the ledger keeps can be shown.
 */
export const balanceMinorMax: bigint = BigInt(Number.MAX_SAFE_INTEGER)

/** Whether a guarded account's balances are within `balanceMinorMax`. */
export const withinBalanceLimit = (balance: Balance): boolean =>
  balance.postedMinor <= balanceMinorMax &&
  balance.pendingDebitsMinor <= balanceMinorMax &&
  balance.pendingCreditsMinor <= balanceMinorMax &&
  balance.postedMinor + balance.pendingCreditsMinor <= balanceMinorMax

/** Limits every adapter enforces alike. */
export const limits = { idLength: 255, idempotencyKeyLength: 512, descriptionLength: 1000, entries: 100 } as const

// NUL cannot be stored by PostgreSQL; refusing it here keeps every adapter equal.
const badText = (value: string, maxLength: number, emptyAllowed = false) =>
  (!emptyAllowed && value.length === 0) || value.length > maxLength || value.includes("\u0000")

/** Checks an account to open: an id of 1-255 characters without NUL, and a currency of the registry. */
export const validateAccount = (account: LedgerAccount): Either.Either<LedgerAccount, InvalidPosting> =>
  badText(account.id, limits.idLength)
    ? Either.left(InvalidPosting.of("account_id_invalid"))
    : Currency.registry.has(account.currency)
      ? Either.right(account)
      : Either.left(InvalidPosting.of("currency_unknown", { currency: account.currency }))

/**
 * Checks what can be checked without the store: a status of `posted` or `pending`; 2-100 entries, each non-zero
 * and within `amountMinorMax`, summing to zero per currency; texts within their limits and without NUL. Accounts
 * are checked by the adapter.
 */
export const validatePosting = (posting: Posting): Either.Either<Posting, InvalidPosting> => {
  if (badText(posting.idempotencyKey, limits.idempotencyKeyLength)) {
    return Either.left(InvalidPosting.of("idempotency_key_invalid"))
  }
  if (badText(posting.description, limits.descriptionLength, true)) {
    return Either.left(InvalidPosting.of("description_invalid"))
  }
  if (posting.status !== "posted" && posting.status !== "pending") {
    return Either.left(InvalidPosting.of("status_invalid"))
  }
  if (posting.entries.length < 2 || posting.entries.length > limits.entries) {
    return Either.left(InvalidPosting.of("entry_count_invalid"))
  }
  const sums = new Map<string, bigint>()
  for (const entry of posting.entries) {
    if (badText(entry.accountId, limits.idLength) || badText(entry.currency, limits.idLength)) {
      return Either.left(InvalidPosting.of("entry_invalid"))
    }
    if (entry.amountMinor === 0n || entry.amountMinor > amountMinorMax || entry.amountMinor < -amountMinorMax) {
      return Either.left(InvalidPosting.of("amount_invalid"))
    }
    sums.set(entry.currency, (sums.get(entry.currency) ?? 0n) + entry.amountMinor)
  }
  for (const [currency, sum] of sums) {
    if (sum !== 0n) return Either.left(InvalidPosting.of("entries_must_sum_to_zero", { currency }))
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
 * The ledger port. `post`, `confirm` and `release` are atomic and race-safe on every adapter, outside or inside a
 * `UnitOfWork.transaction` (whose connection or undo log they join). Inside one, a failed call applies nothing and
 * leaves the unit of work usable.
 */
export class Ledger extends Context.Tag("@payrail/core/Ledger")<
  Ledger,
  {
    /**
     * Creates the account if it does not exist. Idempotent: opening an existing id with the same spec succeeds;
     * with another platform, currency or kind it fails with `InvalidPosting`, as does an invalid spec.
     */
    readonly openAccount: (account: LedgerAccount) => Effect.Effect<void, InvalidPosting | StoreFailure.StoreFailure>
    /**
     * Opens every account as `openAccount` would: idempotent per account, `InvalidPosting` for the first invalid or
     * conflicting one in the given order (an invalid spec opens nothing). One statement on SQL adapters when none of
     * the accounts exists yet; none for an empty list. Inside a unit of work a failure leaves nothing; outside one,
     * accounts opened before a conflict is found stay open, as with separate `openAccount` calls.
     */
    readonly openAccounts: (
      accounts: ReadonlyArray<LedgerAccount>
    ) => Effect.Effect<void, InvalidPosting | StoreFailure.StoreFailure>
    /**
     * Records a posting atomically: all entries or none. Checks, in this order: `validatePosting`, then every entry
     * names an account of the platform in the entry's currency (`InvalidPosting`), then the idempotency key (a
     * replay answers `applied: false` with the first posting's id; other content fails with
     * `IdempotencyKeyReused`), then the guards: for each guarded account, its available balance must cover the sum
     * of its debit entries in this posting, checked and applied in one step (`InsufficientFunds` names the account),
     * and its balances after the posting must stay within `balanceMinorMax` (`BalanceLimitExceeded`).
     * Answers with the guarded accounts' balances of that same step (`PostResult.balances`), so a caller needs no
     * second read.
     */
    readonly post: (
      posting: Posting
    ) => Effect.Effect<
      PostResult,
      BalanceLimitExceeded | InsufficientFunds | IdempotencyKeyReused | InvalidPosting | StoreFailure.StoreFailure
    >
    /**
     * `post`, and when this call applies the posting, records the event completed with the posting's figures
     * (`RecordedEvent.complete`) in the same atomic step: on SQL adapters one statement, so outside a unit of work
     * the posting and its event commit together without a trip back to the caller while the guarded rows are
     * locked. A replay or a failure records nothing.
     */
    readonly postRecording: (
      posting: Posting,
      recorded: RecordedEvent
    ) => Effect.Effect<
      PostResult,
      BalanceLimitExceeded | InsufficientFunds | IdempotencyKeyReused | InvalidPosting | StoreFailure.StoreFailure
    >
    /** Settles a pending posting: its entries become posted. Exactly once; a second call fails. */
    readonly confirm: (
      platformId: Platform.PlatformId,
      postingId: PostingId
    ) => Effect.Effect<void, ReservationSettled | StoreFailure.StoreFailure>
    /** Cancels a pending posting: reserved funds become available again. Exactly once; a second call fails. */
    readonly release: (
      platformId: Platform.PlatformId,
      postingId: PostingId
    ) => Effect.Effect<void, ReservationSettled | StoreFailure.StoreFailure>
    /** Balances of the account; an unknown account, or one of another platform, fails with `InvalidPosting`. */
    readonly balance: (
      platformId: Platform.PlatformId,
      accountId: string
    ) => Effect.Effect<Balance, InvalidPosting | StoreFailure.StoreFailure>
    /**
     * The account's balances recomputed from its entries alone (posted postings' entries, and pending postings'
     * debits and credits), ignoring any running balance the adapter keeps. For audits and invariant checks: it
     * equals `balance` whenever the ledger is consistent.
     */
    readonly reconcile: (
      platformId: Platform.PlatformId,
      accountId: string
    ) => Effect.Effect<Balance, InvalidPosting | StoreFailure.StoreFailure>
    /**
     * Sum of posted entries per currency across the platform, for invariant checks: every currency sums to zero.
     */
    readonly postedTotals: (
      platformId: Platform.PlatformId
    ) => Effect.Effect<ReadonlyMap<string, bigint>, StoreFailure.StoreFailure>
  }
>() {}
