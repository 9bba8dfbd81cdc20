import { Schema } from "effect"

/**
 * Refusals of the ledger. Each names the rule it enforces in `details.rule` beside the spec's `code`, and has one
 * constructor (`of`), so every adapter gives the same code, reason and rule for the same refusal.
 */

/** A guarded account would go below zero. Spec code `INSUFFICIENT_FUNDS` (400). */
export class InsufficientFunds extends Schema.TaggedError<InsufficientFunds>()("InsufficientFunds", {
  code: Schema.tag("INSUFFICIENT_FUNDS"),
  reason: Schema.String,
  details: Schema.Struct({ rule: Schema.Literal("exceeds_available_balance"), accountId: Schema.String })
}) {
  static of(accountId: string): InsufficientFunds {
    return new InsufficientFunds({
      reason: "The account's available balance does not cover the debit",
      details: { rule: "exceeds_available_balance", accountId }
    })
  }
}

/**
 * A guarded account's balance would pass `Ledger.balanceMinorMax` (2^53-1 minor units, the largest amount the API
 * carries exactly). Code `CONFLICT` (409): the posting is well-formed, the account's state refuses it.
 */
export class BalanceLimitExceeded extends Schema.TaggedError<BalanceLimitExceeded>()("BalanceLimitExceeded", {
  code: Schema.tag("CONFLICT"),
  reason: Schema.String,
  details: Schema.Struct({ rule: Schema.Literal("balance_limit_exceeded") })
}) {
  static of(): BalanceLimitExceeded {
    return new BalanceLimitExceeded({
      reason: "The account's balance would exceed 9007199254740991 minor units",
      details: { rule: "balance_limit_exceeded" }
    })
  }
}

/** The idempotency key was used before for a different posting. Code `CONFLICT` (409). */
export class IdempotencyKeyReused extends Schema.TaggedError<IdempotencyKeyReused>()("IdempotencyKeyReused", {
  code: Schema.tag("CONFLICT"),
  reason: Schema.String,
  details: Schema.Struct({ rule: Schema.Literal("exists_with_different_posting") }),
  /** The key as the ledger stores it, for logs; outside `details`, so it never reaches an error body. */
  idempotencyKey: Schema.optional(Schema.String)
}) {
  static of(idempotencyKey: string): IdempotencyKeyReused {
    return new IdempotencyKeyReused({
      reason: "The idempotency key was already used for a different posting",
      details: { rule: "exists_with_different_posting" },
      idempotencyKey
    })
  }
}

/** The rule a refused posting or account broke. */
export const PostingRule = Schema.Literal(
  "account_id_invalid",
  "account_not_found",
  "account_exists_with_different_spec",
  "currency_unknown",
  "idempotency_key_invalid",
  "description_invalid",
  "status_invalid",
  "entry_count_invalid",
  "entry_invalid",
  "amount_invalid",
  "entries_must_sum_to_zero"
)
export type PostingRule = typeof PostingRule.Type

const postingReasons: { readonly [K in PostingRule]: string } = {
  account_id_invalid: "An account id has 1 to 255 characters and no NUL",
  account_not_found: "No ledger account with this id and currency on this platform",
  account_exists_with_different_spec: "The account exists with another currency or guard",
  currency_unknown: "The currency is not in the registry",
  idempotency_key_invalid: "An idempotency key has 1 to 512 characters and no NUL",
  description_invalid: "A description has at most 1000 characters and no NUL",
  status_invalid: "A posting is posted or pending",
  entry_count_invalid: "A posting has 2 to 100 entries",
  entry_invalid: "An entry names an account id and a currency of 1 to 255 characters without NUL",
  amount_invalid: "An entry amount is non-zero and within the 64-bit range",
  entries_must_sum_to_zero: "The entries do not sum to zero per currency"
}

/** A posting or account is invalid: entries do not sum to zero per currency, an account is unknown… */
export class InvalidPosting extends Schema.TaggedError<InvalidPosting>()("InvalidPosting", {
  code: Schema.tag("INVALID_INPUT"),
  reason: Schema.String,
  details: Schema.Struct({
    rule: PostingRule,
    accountId: Schema.optional(Schema.String),
    currency: Schema.optional(Schema.String)
  })
}) {
  static of(
    rule: PostingRule,
    subject: { readonly accountId?: string; readonly currency?: string } = {}
  ): InvalidPosting {
    return new InvalidPosting({ reason: postingReasons[rule], details: { rule, ...subject } })
  }
}

/** The reservation is unknown or was already committed or released. Code `CONFLICT` (409). */
export class ReservationSettled extends Schema.TaggedError<ReservationSettled>()("ReservationSettled", {
  code: Schema.tag("CONFLICT"),
  reason: Schema.String,
  details: Schema.Struct({ rule: Schema.Literal("reservation_settles_once"), postingId: Schema.String })
}) {
  static of(postingId: string): ReservationSettled {
    return new ReservationSettled({
      reason: "The reservation is unknown or was already committed or released",
      details: { rule: "reservation_settles_once", postingId }
    })
  }
}
