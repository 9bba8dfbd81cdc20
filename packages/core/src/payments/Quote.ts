import { Schema } from "effect"
import { Currency, JsonObject, ResourceId, SchemaClass } from "../kernel/index.js"
import { RateDetails } from "./RateDetails.js"
import { ScaChallenge } from "./ScaChallenge.js"
import { TransactionId } from "./Transaction.js"

/** `Quote:<uuid>`: a locked price for one payment, executable until `expiresAt`. */
export const QuoteId = ResourceId.make("Quote")
export type QuoteId = typeof QuoteId.Type

/**
 * The reference's quote statuses. `PENDING` waits for execution (or, for real-time funding, for the payer's
 * money); `PENDING_AUTHORIZATION` waits for strong customer authentication; `PROCESSING` is executed and under way;
 * `COMPLETED`, `FAILED` and `EXPIRED` follow the payment.
 */
export const QuoteStatus = Schema.Literal(
  "PENDING",
  "PENDING_AUTHORIZATION",
  "PROCESSING",
  "COMPLETED",
  "FAILED",
  "EXPIRED"
)
export type QuoteStatus = typeof QuoteStatus.Type

/** Which side's amount the request fixed: what is sent (fees included) or what arrives. */
export const LockedCurrencySide = Schema.Literal("SENDING", "RECEIVING")
export type LockedCurrencySide = typeof LockedCurrencySide.Type

/** The reference's `purposeOfPayment` values. */
export const PurposeOfPayment = Schema.Literal(
  "GIFT",
  "SELF",
  "GOODS_OR_SERVICES",
  "EDUCATION",
  "HEALTH_OR_MEDICAL",
  "REAL_ESTATE_PURCHASE",
  "TAX_PAYMENT",
  "LOAN_PAYMENT",
  "UTILITY_BILL",
  "DONATION",
  "TRAVEL",
  "FAMILY_SUPPORT",
  "SALARY_PAYMENT",
  "OTHER"
)
export type PurposeOfPayment = typeof PurposeOfPayment.Type

/** Where a quote's money comes from: an account (internal, or an external one that can be pulled), or the payer in real time. */
export const QuoteSource = Schema.Union(
  Schema.Struct({
    sourceType: Schema.Literal("ACCOUNT"),
    accountId: Schema.String,
    customerId: Schema.optional(Schema.String)
  }),
  Schema.Struct({
    sourceType: Schema.Literal("REALTIME_FUNDING"),
    currency: Schema.String,
    customerId: Schema.optional(Schema.String),
    cryptoNetwork: Schema.optional(Schema.String)
  })
).annotations({ identifier: "QuoteSource" })
export type QuoteSource = typeof QuoteSource.Type

/**
 * Where a quote's money goes: an account (internal or external) or an UMA address (normalized, with the receiving
 * currency, and for an address on the platform's own domain the account it resolved to).
 */
export const QuoteDestination = Schema.Union(
  Schema.Struct({
    destinationType: Schema.Literal("ACCOUNT"),
    accountId: Schema.String,
    paymentRail: Schema.optional(Schema.String)
  }),
  Schema.Struct({
    destinationType: Schema.Literal("UMA_ADDRESS"),
    umaAddress: Schema.String,
    currency: Schema.optional(Schema.String),
    /** For an address on the platform's own UMA domain: the receiving customer's account the payment goes to. */
    accountId: Schema.optional(Schema.String)
  })
).annotations({ identifier: "QuoteDestination" })
export type QuoteDestination = typeof QuoteDestination.Type

/**
 * How the payer funds a quote: `accountOrWalletInfo` is one of the reference's rail shapes (bank details with a
 * `reference`, a wallet `address`, a Lightning `invoice`, or an embedded wallet's `payloadToSign`), named by its
 * `accountType`.
 */
export const PaymentInstructions = Schema.Struct({
  instructionsNotes: Schema.optional(Schema.String),
  isPlatformAccount: Schema.optional(Schema.Boolean),
  accountOrWalletInfo: Schema.Struct({ accountType: Schema.String }, JsonObject.JsonObject)
}).annotations({ identifier: "PaymentInstructions" })
export type PaymentInstructions = typeof PaymentInstructions.Type

/**
 * A quote as the API returns it (and as it is stored). Totals are integers in minor units: `totalSendingAmount`
 * of the sending currency, fees included; `totalReceivingAmount` of the receiving one. `exchangeRate` is sending
 * units per receiving unit; `feesIncluded` (sending currency) includes `platformFeesIncluded`. The pricing rule
 * that ties them together exactly is in docs/fx-and-fees.md. `customerId` is the customer the quote is for (absent
 * for the platform's own accounts).
 */
export class Quote extends SchemaClass.Class<Quote>("Quote")({
  id: QuoteId,
  status: QuoteStatus,
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc,
  expiresAt: Schema.DateTimeUtc,
  source: QuoteSource,
  destination: QuoteDestination,
  customerId: Schema.optional(Schema.String),
  sendingCurrency: Currency.Currency,
  receivingCurrency: Currency.Currency,
  lockedCurrencySide: LockedCurrencySide,
  lockedCurrencyAmount: Schema.Int,
  totalSendingAmount: Schema.Int,
  totalReceivingAmount: Schema.Int,
  exchangeRate: Schema.Number,
  feesIncluded: Schema.Int,
  platformFeesIncluded: Schema.Int,
  transactionId: TransactionId,
  paymentInstructions: Schema.Array(PaymentInstructions),
  rateDetails: Schema.optional(RateDetails),
  description: Schema.optional(Schema.String),
  purposeOfPayment: Schema.optional(PurposeOfPayment),
  remittanceInformation: Schema.optional(Schema.String),
  lookupId: Schema.optional(Schema.String),
  /**
   * What the receiver's side shared about the payee (an UMA counterparty's `receiverCustomerInfo`), when it shared
   * anything: the reference's field, copied onto the transaction.
   */
  counterpartyInformation: Schema.optional(JsonObject.JsonObject),
  /** The agent that created it (`Agent:<uuid>`, through `/agents/me/quotes`); absent for everything else. */
  agentId: Schema.optional(Schema.String),
  /** The strong customer authentication challenge to satisfy now: present only while `PENDING_AUTHORIZATION`. */
  scaChallenge: Schema.optional(ScaChallenge)
}) {}
