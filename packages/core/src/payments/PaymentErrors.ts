import { Schema } from "effect"

/** No quote with this id on the caller's platform. Code `QUOTE_NOT_FOUND` (404). */
export class QuoteNotFound extends Schema.TaggedError<QuoteNotFound>()("QuoteNotFound", {
  code: Schema.tag("QUOTE_NOT_FOUND"),
  reason: Schema.String,
  details: Schema.Struct({ quoteId: Schema.String })
}) {
  static of(quoteId: string): QuoteNotFound {
    return new QuoteNotFound({ reason: "Quote not found", details: { quoteId } })
  }
}

/** No transaction with this id on the caller's platform. Code `TRANSACTION_NOT_FOUND` (404). */
export class TransactionNotFound extends Schema.TaggedError<TransactionNotFound>()("TransactionNotFound", {
  code: Schema.tag("TRANSACTION_NOT_FOUND"),
  reason: Schema.String,
  details: Schema.Struct({ transactionId: Schema.String })
}) {
  static of(transactionId: string): TransactionNotFound {
    return new TransactionNotFound({ reason: "Transaction not found", details: { transactionId } })
  }
}

/**
 * The quote's state does not allow what was asked (executing a quote twice, or one that is not `PENDING`).
 * Code `INVALID_STATE_TRANSITION` (409), with the quote's status and the refused event.
 */
export class QuoteTransitionRefused extends Schema.TaggedError<QuoteTransitionRefused>()("QuoteTransitionRefused", {
  code: Schema.tag("INVALID_STATE_TRANSITION"),
  reason: Schema.String,
  details: Schema.Struct({ quoteId: Schema.String, status: Schema.String, event: Schema.String })
}) {
  static of(quoteId: string, status: string, event: string): QuoteTransitionRefused {
    return new QuoteTransitionRefused({
      reason: `A quote in status ${status} does not accept ${event}`,
      details: { quoteId, status, event }
    })
  }
}

/**
 * A transaction's state does not allow what was asked. Code `INVALID_STATE_TRANSITION` (409), with the
 * transaction's status and the refused event.
 */
export class TransactionTransitionRefused extends Schema.TaggedError<TransactionTransitionRefused>()(
  "TransactionTransitionRefused",
  {
    code: Schema.tag("INVALID_STATE_TRANSITION"),
    reason: Schema.String,
    details: Schema.Struct({ transactionId: Schema.String, status: Schema.String, event: Schema.String })
  }
) {
  static of(transactionId: string, status: string, event: string): TransactionTransitionRefused {
    return new TransactionTransitionRefused({
      reason: `A transaction in status ${status} does not accept ${event}`,
      details: { transactionId, status, event }
    })
  }
}

/** The quote's `expiresAt` has passed: request a new quote. Code `QUOTE_EXPIRED` (400). */
export class QuoteExpired extends Schema.TaggedError<QuoteExpired>()("QuoteExpired", {
  code: Schema.tag("QUOTE_EXPIRED"),
  reason: Schema.String,
  details: Schema.Struct({ quoteId: Schema.String, expiresAt: Schema.String })
}) {
  static of(quoteId: string, expiresAt: string): QuoteExpired {
    return new QuoteExpired({ reason: "The quote has expired; request a new quote", details: { quoteId, expiresAt } })
  }
}

/** The source and the destination are the same account. Code `SELF_PAYMENT` (400). */
export class SelfPayment extends Schema.TaggedError<SelfPayment>()("SelfPayment", {
  code: Schema.tag("SELF_PAYMENT"),
  reason: Schema.String,
  details: Schema.Struct({ accountId: Schema.String })
}) {
  static of(accountId: string): SelfPayment {
    return new SelfPayment({
      reason: "A payment from an account to itself is not allowed",
      details: { accountId }
    })
  }
}

/**
 * The destination is a self-custody wallet whose ownership is not verified yet, and the amount is above what may
 * be sent to it unverified. Code `EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED` (400).
 */
export class ExternalAccountVerificationRequired extends Schema.TaggedError<ExternalAccountVerificationRequired>()(
  "ExternalAccountVerificationRequired",
  {
    code: Schema.tag("EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED"),
    reason: Schema.String,
    details: Schema.Struct({ accountId: Schema.String, status: Schema.String })
  }
) {
  static of(accountId: string, status: string): ExternalAccountVerificationRequired {
    return new ExternalAccountVerificationRequired({
      reason: "The destination account's ownership must be verified first",
      details: { accountId, status }
    })
  }
}
