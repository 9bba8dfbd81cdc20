import { Schema } from "effect"
import { Currency, ResourceId, SchemaClass } from "../kernel/index.js"

/**
 * A debit card issued to a customer against one internal account (its funding source). The wire form carries our
 * spec's names (`customerId`, `status`, `fundingSource`) and, beside them, the reference API's (`cardholderId`,
 * `state`, `fundingSources`), so that clients written against either read it (docs/cards.md).
 */

export const CardId = ResourceId.make("Card")
export type CardId = typeof CardId.Type

/** The card's life (docs/cards.md, the state table in `CardState`). `CLOSED` is terminal. */
export const CardStatus = Schema.Literal("PROCESSING", "ACTIVE", "FROZEN", "CLOSED")
export type CardStatus = typeof CardStatus.Type

/** Why a card is `CLOSED`: the issuer refused it, or the platform closed it. */
export const CardStateReason = Schema.Literal("ISSUER_REJECTED", "CLOSED_BY_PLATFORM")
export type CardStateReason = typeof CardStateReason.Type

export const CardBrand = Schema.Literal("VISA", "MASTERCARD")
export type CardBrand = typeof CardBrand.Type

export const CardForm = Schema.Literal("VIRTUAL")
export type CardForm = typeof CardForm.Type

/** What the issuer assigned at issuance: shown on the card, never the full number or the CVC. */
export const IssuedDetails = Schema.Struct({
  brand: CardBrand,
  last4: Schema.String,
  expMonth: Schema.Int,
  expYear: Schema.Int,
  issuerRef: Schema.String,
  processorRef: Schema.String
})
export type IssuedDetails = typeof IssuedDetails.Type

/** A card as stored and served (the secret the issuer keeps for it is in `StoredCard`, never here). */
export class Card extends SchemaClass.Class<Card>("CardRecord")({
  id: CardId,
  customerId: Schema.String,
  platformCustomerId: Schema.optional(Schema.String),
  status: CardStatus,
  stateReason: Schema.optional(CardStateReason),
  brand: CardBrand,
  form: CardForm,
  last4: Schema.String,
  expMonth: Schema.Int,
  expYear: Schema.Int,
  /** The internal account the card spends from; absent once the card is closed (closing detaches it). */
  fundingSource: Schema.optional(Schema.String),
  currency: Currency.CurrencyCode,
  /** The most the card spends in one transaction, in minor units of `currency` (exactly the limit is allowed). */
  maxSpendPerTransaction: Schema.optional(Schema.Int),
  processorRef: Schema.String,
  issuerRef: Schema.String,
  platformCardId: Schema.String,
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc
}) {}

/**
 * The card as the API shows it: our spec's fields, and the reference API's names beside them (`cardholderId` =
 * `customerId`, `state` = `status`, `fundingSources` = `[fundingSource]` or `[]` once closed,
 * `maxSpendPerTransaction` null when unlimited, `stateReason` null unless closed).
 */
export const CardView = Schema.Struct({
  id: CardId,
  customerId: Schema.String,
  cardholderId: Schema.String,
  platformCustomerId: Schema.optional(Schema.String),
  status: CardStatus,
  state: CardStatus,
  stateReason: Schema.NullOr(CardStateReason),
  brand: CardBrand,
  form: CardForm,
  last4: Schema.String,
  expMonth: Schema.Int,
  expYear: Schema.Int,
  fundingSource: Schema.optional(Schema.String),
  fundingSources: Schema.Array(Schema.String),
  currency: Currency.CurrencyCode,
  maxSpendPerTransaction: Schema.NullOr(Schema.Int),
  processorRef: Schema.String,
  issuerRef: Schema.String,
  platformCardId: Schema.String,
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc
}).annotations({ identifier: "Card" })
export type CardView = typeof CardView.Type

/** The API's form of a card. */
export const view = (card: Card): CardView => ({
  id: card.id,
  customerId: card.customerId,
  cardholderId: card.customerId,
  ...(card.platformCustomerId === undefined ? {} : { platformCustomerId: card.platformCustomerId }),
  status: card.status,
  state: card.status,
  stateReason: card.stateReason ?? null,
  brand: card.brand,
  form: card.form,
  last4: card.last4,
  expMonth: card.expMonth,
  expYear: card.expYear,
  ...(card.fundingSource === undefined ? {} : { fundingSource: card.fundingSource }),
  fundingSources: card.fundingSource === undefined ? [] : [card.fundingSource],
  currency: card.currency,
  maxSpendPerTransaction: card.maxSpendPerTransaction ?? null,
  processorRef: card.processorRef,
  issuerRef: card.issuerRef,
  platformCardId: card.platformCardId,
  createdAt: card.createdAt,
  updatedAt: card.updatedAt
})

/**
 * A card with what only storage sees: the platform, a version that every update bumps (updates compare and set
 * it, so of two concurrent updates one applies), and the issuer's secret (from which the sandbox issuer derives the
 * full number and CVC for the reveal page; never in an API response or a log).
 */
export interface StoredCard {
  readonly platformId: string
  readonly card: Card
  readonly version: number
  readonly issuerSecret: string
}

/** `GET /cards` filters (the reference's): `accountId` matches the funding source. */
export interface CardFilter {
  readonly customerId?: string | undefined
  readonly accountId?: string | undefined
  readonly platformCardId?: string | undefined
  readonly status?: CardStatus | undefined
  readonly sortOrder: "asc" | "desc"
}
