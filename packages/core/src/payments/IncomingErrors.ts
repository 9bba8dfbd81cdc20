import { Schema } from "effect"

/**
 * `POST /transactions/{id}/approve` or `/reject` on an incoming payment that no longer waits for the platform: it
 * was decided already (by a webhook reply or an earlier call) or its deadline passed. The reference's code
 * `TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL` (409), with the transaction's status and the decision's.
 */
export class IncomingPaymentNotPending extends Schema.TaggedError<IncomingPaymentNotPending>()(
  "IncomingPaymentNotPending",
  {
    code: Schema.tag("TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL"),
    reason: Schema.String,
    details: Schema.Struct({
      transactionId: Schema.String,
      status: Schema.String,
      decision: Schema.String,
      rule: Schema.Literal("decided_once")
    })
  }
) {
  static of(transactionId: string, status: string, decision: string): IncomingPaymentNotPending {
    return new IncomingPaymentNotPending({
      reason:
        decision === "TIMED_OUT"
          ? "The payment's decision deadline passed; it was not credited"
          : `The payment was decided already (${decision}); it is ${status}`,
      details: { transactionId, status, decision, rule: "decided_once" }
    })
  }
}

/** Why a transaction cannot be cancelled. */
export const NotCancellableRule = Schema.Literal("not_outgoing", "rail_not_cancellable", "already_sent")
export type NotCancellableRule = typeof NotCancellableRule.Type

/**
 * `POST /transactions/{id}/cancel` on a transaction that cannot be cancelled: not an outgoing payment, not on a
 * cancellable bank rail (ACH), or past the point where its rail could withdraw it. Code `TRANSACTION_NOT_CANCELLABLE`
 * (409), naming the rule, the status and the rail.
 */
export class TransactionNotCancellable extends Schema.TaggedError<TransactionNotCancellable>()(
  "TransactionNotCancellable",
  {
    code: Schema.tag("TRANSACTION_NOT_CANCELLABLE"),
    reason: Schema.String,
    details: Schema.Struct({
      transactionId: Schema.String,
      status: Schema.String,
      paymentRail: Schema.optional(Schema.String),
      rule: NotCancellableRule
    })
  }
) {
  static of(
    transactionId: string,
    status: string,
    paymentRail: string | undefined,
    rule: NotCancellableRule
  ): TransactionNotCancellable {
    const reason = {
      not_outgoing: "Only outgoing bank transfers can be cancelled",
      rail_not_cancellable: `Payments on ${paymentRail ?? "this rail"} cannot be withdrawn once submitted; only ACH transfers can be cancelled`,
      already_sent: `The transfer is ${status}: it can no longer be cancelled`
    }[rule]
    return new TransactionNotCancellable({
      reason,
      details: { transactionId, status, ...(paymentRail === undefined ? {} : { paymentRail }), rule }
    })
  }
}
