import { type DateTime, Schema } from "effect"
import { Money, ResourceId, SchemaClass } from "../kernel/index.js"
import { CardId } from "./Card.js"

/**
 * A card transaction (`type: CARD`): a purchase authorized on a card and settled by clearings, or a credit to the
 * card (a merchant refund, a credit authorization). It appears in `GET /transactions` beside money transactions.
 * Our spec's rule for refunds holds (a refund is its own dated `CREDIT` row, linked to the purchase by
 * `originalTransactionId`), and the purchase also rolls refunds up as the reference API does (`refundedAmount`,
 * `refundSummary`, `REFUNDED` once fully refunded). docs/card-transactions.md.
 */

export const CardTransactionId = ResourceId.make("CardTransaction")
export type CardTransactionId = typeof CardTransactionId.Type

/**
 * - `AUTHORIZED`: approved; the authorized amount is held on the funding account.
 * - `PARTIALLY_SETTLED`: cleared in part; the rest is still held.
 * - `SETTLED`: cleared in full (or, for a credit, credited).
 * - `REFUNDED`: a purchase refunded in full.
 * - `EXPIRED`: the authorization expired (a zero clearing) before anything settled; the hold is released.
 * - `EXCEPTION`: the network settled but the pull from the funding source failed.
 */
export const CardTransactionStatus = Schema.Literal(
  "AUTHORIZED",
  "PARTIALLY_SETTLED",
  "SETTLED",
  "REFUNDED",
  "EXPIRED",
  "EXCEPTION"
)
export type CardTransactionStatus = typeof CardTransactionStatus.Type

/** How the card's network produced the row (the simulator that made it, in the sandbox). */
export const CardTransactionKind = Schema.Literal(
  "AUTHORIZATION",
  "FINANCIAL_AUTHORIZATION",
  "CREDIT_AUTHORIZATION",
  "FINANCIAL_CREDIT_AUTHORIZATION",
  "CREDIT_AUTHORIZATION_ADVICE",
  "RETURN"
)
export type CardTransactionKind = typeof CardTransactionKind.Type

/** A merchant descriptor is 1 to 25 characters; `mcc` 4 digits; `country` ISO 3166-1 alpha-2. */
export const MerchantDescriptor = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(25))

export const Merchant = Schema.Struct({
  descriptor: MerchantDescriptor,
  mcc: Schema.optional(Schema.String.pipe(Schema.pattern(/^[0-9]{4}$/))),
  country: Schema.optional(Schema.String.pipe(Schema.pattern(/^[A-Z]{2}$/)))
}).annotations({ identifier: "CardMerchant" })
export type Merchant = typeof Merchant.Type

/** A count and a total, in the card's currency. */
export const Summary = Schema.Struct({
  count: Schema.Int,
  totalAmount: Money.CurrencyAmount
}).annotations({ identifier: "CardTransactionSummary" })
export type Summary = typeof Summary.Type

/** The pulls from the funding source: `pendingCount` of them not yet confirmed (a delayed pull). */
export const PullSummary = Schema.Struct({
  count: Schema.Int,
  totalAmount: Money.CurrencyAmount,
  pendingCount: Schema.Int
}).annotations({ identifier: "CardPullSummary" })
export type PullSummary = typeof PullSummary.Type

export class CardTransaction extends SchemaClass.Class<CardTransaction>("CardTransaction")({
  id: CardTransactionId,
  type: Schema.Literal("CARD"),
  kind: CardTransactionKind,
  cardId: CardId,
  customerId: Schema.String,
  platformCustomerId: Schema.optional(Schema.String),
  issuerTransactionToken: Schema.String,
  status: CardTransactionStatus,
  direction: Schema.Literal("DEBIT", "CREDIT"),
  merchant: Merchant,
  /** The funding source that paid (or was credited). */
  accountId: Schema.String,
  authorizedAmount: Money.CurrencyAmount,
  settledAmount: Money.CurrencyAmount,
  refundedAmount: Schema.optional(Money.CurrencyAmount),
  /** On a refund (`RETURN`, `CREDIT`): the purchase it refunds. */
  originalTransactionId: Schema.optional(CardTransactionId),
  pullSummary: PullSummary,
  settlementSummary: Summary,
  refundSummary: Schema.optional(Summary),
  authorizedAt: Schema.DateTimeUtc,
  lastEventAt: Schema.DateTimeUtc,
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc
}) {}

/**
 * A card transaction with what only storage sees: its platform, a version every update bumps (compare and set), and
 * the ledger: `holdPostingId` is the pending posting that reserves what is authorized and not yet settled
 * (`holdAmount` minor units), absent when nothing is held.
 */
export interface StoredCardTransaction {
  readonly platformId: string
  readonly transaction: CardTransaction
  readonly version: number
  readonly holdPostingId?: string | undefined
  readonly holdAmount: number
}

/** Filters of card transactions (those of `GET /transactions` that apply to them, plus `cardId`). */
export interface CardTransactionFilter {
  readonly cardId?: string | undefined
  readonly customerId?: string | undefined
  readonly platformCustomerId?: string | undefined
  readonly accountId?: string | undefined
  readonly status?: CardTransactionStatus | undefined
  readonly startDate?: DateTime.Utc | undefined
  readonly endDate?: DateTime.Utc | undefined
  readonly sortOrder: "asc" | "desc"
}
