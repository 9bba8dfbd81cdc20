import { Schema } from "effect"

/**
 * Failures of cards and card transactions. One constructor each (`of`), so no call site spells out a code or
 * reason; the HTTP status is attached by `@payrail/api` (in brackets here).
 */

/** No card with this id on the caller's platform [404]. */
export class CardNotFound extends Schema.TaggedError<CardNotFound>()("CardNotFound", {
  code: Schema.tag("NOT_FOUND"),
  reason: Schema.String,
  details: Schema.Struct({ cardId: Schema.String })
}) {
  static of(cardId: string): CardNotFound {
    return new CardNotFound({ reason: "Card not found", details: { cardId } })
  }
}

/** A card is issued only to a customer whose KYC (or KYB) status is `APPROVED` [400]. */
export class CardholderKycNotApproved extends Schema.TaggedError<CardholderKycNotApproved>()(
  "CardholderKycNotApproved",
  {
    code: Schema.tag("CARDHOLDER_KYC_NOT_APPROVED"),
    reason: Schema.String,
    details: Schema.Struct({ customerId: Schema.String, kycStatus: Schema.String })
  }
) {
  static of(customerId: string, kycStatus: string): CardholderKycNotApproved {
    return new CardholderKycNotApproved({
      reason: `A card can be issued only to a customer whose KYC status is APPROVED (it is ${kycStatus})`,
      details: { customerId, kycStatus }
    })
  }
}

/**
 * The funding source cannot fund this card [400]: it is not an active internal account of the cardholder, its
 * currency is not a card currency, or the sandbox's funding-source magic value refused it. `details.rule` says which.
 */
export class FundingSourceIneligible extends Schema.TaggedError<FundingSourceIneligible>()("FundingSourceIneligible", {
  code: Schema.tag("FUNDING_SOURCE_INELIGIBLE"),
  reason: Schema.String,
  details: Schema.Struct({
    fundingSource: Schema.String,
    rule: Schema.Literal("not_found", "not_cardholders", "not_active", "currency_not_supported")
  })
}) {
  static of(
    fundingSource: string,
    rule: "not_found" | "not_cardholders" | "not_active" | "currency_not_supported"
  ): FundingSourceIneligible {
    const reasons = {
      not_found: "The funding source is not an internal account of this platform",
      not_cardholders: "The funding source belongs to another customer",
      not_active: "The funding source is not active",
      currency_not_supported: "The funding source's currency cannot fund a card"
    } as const
    return new FundingSourceIneligible({ reason: reasons[rule], details: { fundingSource, rule } })
  }
}

/** The card is closed: nothing about it can change any more [409]. */
export class CardAlreadyClosed extends Schema.TaggedError<CardAlreadyClosed>()("CardAlreadyClosed", {
  code: Schema.tag("CARD_ALREADY_CLOSED"),
  reason: Schema.String,
  details: Schema.Struct({ cardId: Schema.String })
}) {
  static of(cardId: string): CardAlreadyClosed {
    return new CardAlreadyClosed({ reason: "The card is closed", details: { cardId } })
  }
}

/** The card is still being provisioned: the platform cannot change it yet [409]. */
export class CardNotMutable extends Schema.TaggedError<CardNotMutable>()("CardNotMutable", {
  code: Schema.tag("CARD_NOT_MUTABLE"),
  reason: Schema.String,
  details: Schema.Struct({ cardId: Schema.String, status: Schema.String })
}) {
  static of(cardId: string, status: string): CardNotMutable {
    return new CardNotMutable({
      reason: `A card in status ${status} cannot be changed until the issuer has provisioned it`,
      details: { cardId, status }
    })
  }
}

/** Another change to the same card or card transaction won the race; retry with the current state [409]. */
export class CardConflict extends Schema.TaggedError<CardConflict>()("CardConflict", {
  code: Schema.tag("CONFLICT"),
  reason: Schema.String,
  details: Schema.Struct({ id: Schema.String })
}) {
  static of(id: string): CardConflict {
    return new CardConflict({ reason: "The record changed concurrently; retry the request", details: { id } })
  }
}

/**
 * The card network declined an authorization [400]; no transaction was recorded. `code` is the decline reason:
 * `INSUFFICIENT_FUNDS` (the funding source's available balance is short), `CARD_PAUSED` (the card is frozen, or
 * the sandbox's descriptor suffix 003), `CARD_NOT_ACTIVE` (provisioning or closed), `TRANSACTION_SIZE_LIMIT_EXCEEDED`
 * (above `maxSpendPerTransaction`).
 */
export const DeclineReason = Schema.Literal(
  "INSUFFICIENT_FUNDS",
  "CARD_PAUSED",
  "CARD_NOT_ACTIVE",
  "TRANSACTION_SIZE_LIMIT_EXCEEDED"
)
export type DeclineReason = typeof DeclineReason.Type

const declineReasons: { readonly [R in DeclineReason]: string } = {
  INSUFFICIENT_FUNDS: "Declined: the card's funding source has insufficient funds",
  CARD_PAUSED: "Declined: the card is frozen",
  CARD_NOT_ACTIVE: "Declined: the card is not active",
  TRANSACTION_SIZE_LIMIT_EXCEEDED: "Declined: the amount is above the card's maxSpendPerTransaction"
}

export class CardDeclined extends Schema.TaggedError<CardDeclined>()("CardDeclined", {
  code: DeclineReason,
  reason: Schema.String,
  details: Schema.Struct({ cardId: Schema.String, issuerTransactionToken: Schema.String })
}) {
  static of(reason: DeclineReason, cardId: string, issuerTransactionToken: string): CardDeclined {
    return new CardDeclined({
      code: reason,
      reason: declineReasons[reason],
      details: { cardId, issuerTransactionToken }
    })
  }
}

/** No card transaction with this id on the card [404] (the code of every transaction lookup). */
export class CardTransactionNotFound extends Schema.TaggedError<CardTransactionNotFound>()("CardTransactionNotFound", {
  code: Schema.tag("TRANSACTION_NOT_FOUND"),
  reason: Schema.String,
  details: Schema.Struct({ cardTransactionId: Schema.String })
}) {
  static of(cardTransactionId: string): CardTransactionNotFound {
    return new CardTransactionNotFound({ reason: "Card transaction not found", details: { cardTransactionId } })
  }
}

/**
 * The card transaction's status does not take this network event [409]: a clearing of a transaction that is not
 * `AUTHORIZED` or `PARTIALLY_SETTLED`, a return above what is settled and not refunded, a return reversal of one
 * that is not `REFUNDED`, an advice on one that is not `AUTHORIZED`.
 */
export class CardTransactionStateInvalid extends Schema.TaggedError<CardTransactionStateInvalid>()(
  "CardTransactionStateInvalid",
  {
    code: Schema.tag("INVALID_STATE_TRANSITION"),
    reason: Schema.String,
    details: Schema.Struct({ cardTransactionId: Schema.String, status: Schema.String, event: Schema.String })
  }
) {
  static of(cardTransactionId: string, status: string, event: string, why?: string): CardTransactionStateInvalid {
    return new CardTransactionStateInvalid({
      reason: why ?? `A card transaction in status ${status} does not take ${event}`,
      details: { cardTransactionId, status, event }
    })
  }
}
