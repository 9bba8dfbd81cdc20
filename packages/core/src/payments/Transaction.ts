import { Schema } from "effect"
import { JsonObject, Money, ResourceId, SchemaClass } from "../kernel/index.js"
import { RateDetails } from "./RateDetails.js"

/** `Transaction:<uuid>`: one money movement as the API reports it (not a database transaction). */
export const TransactionId = ResourceId.make("Transaction")
export type TransactionId = typeof TransactionId.Type

/** Which way the money went, seen from the platform's customer. `CARD` rows come with the cards capability. */
export const TransactionType = Schema.Literal("INCOMING", "OUTGOING")
export type TransactionType = typeof TransactionType.Type

/** Whether the customer's account was credited or debited; independent of `type` (an ACH pull is INCOMING+DEBIT). */
export const Direction = Schema.Literal("CREDIT", "DEBIT")
export type Direction = typeof Direction.Type

/**
 * The reference's `TransactionStatus`. `CREATED` (a lookup exists), `PENDING` (quoted, not yet funded),
 * `PENDING_AUTHORIZATION` (waiting for strong customer authentication), `PROCESSING` (funds taken, payment under
 * way), then one of the final states.
 */
export const TransactionStatus = Schema.Literal(
  "CREATED",
  "PENDING",
  "PENDING_AUTHORIZATION",
  "PROCESSING",
  "COMPLETED",
  "REJECTED",
  "FAILED",
  "REFUNDED",
  "EXPIRED"
)
export type TransactionStatus = typeof TransactionStatus.Type

/** Why a transaction failed: the reference's outgoing and incoming failure reasons. */
export const FailureReason = Schema.Literal(
  "QUOTE_EXPIRED",
  "QUOTE_RATE_UNAVAILABLE",
  "QUOTE_EXECUTION_FAILED",
  "FUNDING_AMOUNT_MISMATCH",
  "SCA_NOT_COMPLETED",
  "PAYOUT_RETURNED",
  "LIMIT_EXCEEDED",
  "ACCOUNT_CANNOT_RECEIVE",
  "ACCOUNT_INVALID",
  "COMPLIANCE_REJECTED",
  "COUNTERPARTY_POST_TX_FAILED",
  "COLLECTION_FAILED",
  "INSUFFICIENT_FUNDS",
  "PAYMENT_APPROVAL_TIMED_OUT",
  "MISSING_MANDATORY_PAYEE_DATA"
)
export type FailureReason = typeof FailureReason.Type

/** An on-chain settlement of a crypto leg. */
export const OnChainTransaction = Schema.Struct({
  transactionHash: Schema.String,
  network: Schema.Literal("BITCOIN", "ETHEREUM", "SOLANA", "BASE", "POLYGON", "TRON", "PLASMA", "SPARK")
})

/** Where money came from. */
export const TransactionSource = Schema.Union(
  Schema.Struct({
    sourceType: Schema.Literal("ACCOUNT"),
    accountId: Schema.String,
    currency: Schema.optional(Schema.String),
    onChainTransaction: Schema.optional(OnChainTransaction)
  }),
  Schema.Struct({ sourceType: Schema.Literal("UMA_ADDRESS"), umaAddress: Schema.String }),
  Schema.Struct({
    sourceType: Schema.Literal("REALTIME_FUNDING"),
    currency: Schema.String,
    customerId: Schema.optional(Schema.String),
    paymentRail: Schema.optional(Schema.String),
    remittanceInformation: Schema.optional(Schema.String)
  })
).annotations({ identifier: "TransactionSource" })
export type TransactionSource = typeof TransactionSource.Type

/** Where money went. */
export const TransactionDestination = Schema.Union(
  Schema.Struct({
    destinationType: Schema.Literal("ACCOUNT"),
    accountId: Schema.String,
    currency: Schema.optional(Schema.String),
    onChainTransaction: Schema.optional(OnChainTransaction)
  }),
  Schema.Struct({
    destinationType: Schema.Literal("UMA_ADDRESS"),
    umaAddress: Schema.String,
    currency: Schema.optional(Schema.String)
  })
).annotations({ identifier: "TransactionDestination" })
export type TransactionDestination = typeof TransactionDestination.Type

/** A refund of a failed transaction whose money had already left: returned to the source by a new posting. */
export const Refund = Schema.Struct({
  reference: Schema.String,
  initiatedAt: Schema.DateTimeUtc,
  settledAt: Schema.optional(Schema.DateTimeUtc),
  status: Schema.Literal("PENDING", "COMPLETED", "FAILED"),
  reason: Schema.optional(Schema.Literal("TRANSACTION_FAILED", "USER_CANCELLATION", "TIMEOUT"))
}).annotations({ identifier: "TransactionRefund" })
export type Refund = typeof Refund.Type

/**
 * A money transaction as the API returns it, in the reference's field names: one shape for `INCOMING` and
 * `OUTGOING` (the fields a type does not use are absent). `customerId` is the customer whose account moved, or the
 * platform's id for the platform's own accounts (the reference's convention). Amounts are integers in minor units:
 * `sentAmount` of the sending currency, `receivedAmount` of the receiving one, `fees` and `platformFees` (a part of
 * `fees`) of the sending one; `exchangeRate` is sending units per receiving unit.
 */
export class Transaction extends SchemaClass.Class<Transaction>("Transaction")({
  id: TransactionId,
  status: TransactionStatus,
  type: TransactionType,
  direction: Direction,
  source: Schema.optional(TransactionSource),
  destination: TransactionDestination,
  customerId: Schema.String,
  platformCustomerId: Schema.optional(Schema.String),
  sentAmount: Schema.optional(Money.CurrencyAmount),
  receivedAmount: Schema.optional(Money.CurrencyAmount),
  fees: Schema.optional(Schema.Int),
  platformFees: Schema.optional(Schema.Int),
  exchangeRate: Schema.optional(Schema.Number),
  /** How an outgoing payment's price was made (its quote's `rateDetails`); absent on incoming ones. */
  rateDetails: Schema.optional(RateDetails),
  quoteId: Schema.optional(Schema.String),
  description: Schema.optional(Schema.String),
  paymentRail: Schema.optional(Schema.String),
  reconciliationInstructions: Schema.optional(Schema.Struct({ reference: Schema.optional(Schema.String) })),
  failureReason: Schema.optional(FailureReason),
  refund: Schema.optional(Refund),
  /**
   * The `reason` given to `POST /transactions/{id}/cancel` (at most 1000 characters), kept for the platform's own
   * records; absent when none was given or the transaction was not cancelled.
   */
  cancellationReason: Schema.optional(Schema.String),
  counterpartyInformation: Schema.optional(JsonObject.JsonObject),
  receiptDeliveryConfirmedAt: Schema.optional(Schema.DateTimeUtc),
  settledAt: Schema.optional(Schema.DateTimeUtc),
  /** The agent that initiated it (`Agent:<uuid>`); absent for everything else. */
  agentId: Schema.optional(Schema.String),
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc
}) {}

/** The account identifiers a transaction is found by (`accountIdentifier` filters): account ids or UMA addresses. */
export const senderIdentifier = (transaction: Transaction): string | undefined => {
  const source = transaction.source
  if (source === undefined) return undefined
  switch (source.sourceType) {
    case "ACCOUNT":
      return source.accountId
    case "UMA_ADDRESS":
      return source.umaAddress
    case "REALTIME_FUNDING":
      return undefined
  }
}

/** The receiving side's identifier: the destination account id or UMA address. */
export const receiverIdentifier = (transaction: Transaction): string =>
  transaction.destination.destinationType === "ACCOUNT"
    ? transaction.destination.accountId
    : transaction.destination.umaAddress
