import { DateTime, Option } from "effect"
import { Card, CardTransaction, Currency, type CardReveal, type Platform } from "@payrail/core"
import * as Fixtures from "../Fixtures.js"

const uuid = () => globalThis.crypto.randomUUID()

const usd = Option.getOrThrow(Currency.find("USD"))

/** A fresh `Card:<uuid>`. */
export const cardId = (): Card.CardId => Card.CardId.make(`Card:${uuid()}`)

/** A fresh `CardTransaction:<uuid>`. */
export const cardTransactionId = (): CardTransaction.CardTransactionId =>
  CardTransaction.CardTransactionId.make(`CardTransaction:${uuid()}`)

/** A fresh `Customer:<uuid>` (the card tables hold no foreign keys). */
export const customerId = (): string => `Customer:${uuid()}`

/** A fresh `InternalAccount:<uuid>`, used as a funding source. */
export const accountId = (): string => `InternalAccount:${uuid()}`

/** 64 lowercase hex digits, fresh: a SHA-256 as the reveal repository stores token hashes. */
export const hash = (): string => `${uuid()}${uuid()}`.replaceAll("-", "")

/** An amount of `amount` minor units of USD. */
export const usdAmount = (amount: number) => ({ amount, currency: usd })

/**
 * An active USD card of the platform created at `at(offsetMillis)`, at version 1, with every optional field
 * (`full: false` leaves out those that may be absent).
 */
export const card = (
  platformId: Platform.PlatformId,
  options: {
    readonly offsetMillis?: number
    readonly full?: boolean
    readonly overrides?: Partial<ConstructorParameters<typeof Card.Card>[0]>
  } = {}
): Card.StoredCard => {
  const createdAt = Fixtures.at(options.offsetMillis ?? 0)
  const full = options.full ?? true
  const id = uuid()
  return {
    platformId,
    version: 1,
    issuerSecret: hash(),
    card: new Card.Card({
      id: Card.CardId.make(`Card:${id}`),
      customerId: customerId(),
      ...(full ? { platformCustomerId: `pc-${id}`, maxSpendPerTransaction: 50_000 } : {}),
      status: "ACTIVE",
      brand: "VISA",
      form: "VIRTUAL",
      last4: "4242",
      expMonth: 12,
      expYear: 2030,
      ...(full ? { fundingSource: accountId() } : {}),
      currency: "USD",
      processorRef: `proc-${id}`,
      issuerRef: `iss-${id}`,
      platformCardId: `card-${id}`,
      createdAt,
      updatedAt: createdAt,
      ...options.overrides
    })
  }
}

/**
 * An authorized purchase of 12.34 USD on `card` created at `at(offsetMillis)`, at version 1, holding its amount,
 * with every optional field (`full: false` leaves out those that may be absent).
 */
export const cardTransaction = (
  stored: Card.StoredCard,
  options: {
    readonly offsetMillis?: number
    readonly full?: boolean
    readonly overrides?: Partial<ConstructorParameters<typeof CardTransaction.CardTransaction>[0]>
  } = {}
): CardTransaction.StoredCardTransaction => {
  const createdAt = Fixtures.at(options.offsetMillis ?? 0)
  const full = options.full ?? true
  const card = stored.card
  return {
    platformId: stored.platformId,
    version: 1,
    holdAmount: full ? 1_234 : 0,
    ...(full ? { holdPostingId: `Posting:${uuid()}` } : {}),
    transaction: new CardTransaction.CardTransaction({
      id: cardTransactionId(),
      type: "CARD",
      kind: "AUTHORIZATION",
      cardId: card.id,
      customerId: card.customerId,
      ...(full && card.platformCustomerId !== undefined ? { platformCustomerId: card.platformCustomerId } : {}),
      issuerTransactionToken: `itt-${uuid()}`,
      status: "AUTHORIZED",
      direction: "DEBIT",
      merchant: full ? { descriptor: "Coffee Shop", mcc: "5814", country: "US" } : { descriptor: "Shop" },
      accountId: card.fundingSource ?? accountId(),
      authorizedAmount: usdAmount(1_234),
      settledAmount: usdAmount(0),
      ...(full
        ? {
            refundedAmount: usdAmount(0),
            originalTransactionId: cardTransactionId(),
            refundSummary: { count: 0, totalAmount: usdAmount(0) }
          }
        : {}),
      pullSummary: { count: 0, totalAmount: usdAmount(0), pendingCount: 0 },
      settlementSummary: { count: 0, totalAmount: usdAmount(0) },
      authorizedAt: createdAt,
      lastEventAt: createdAt,
      createdAt,
      updatedAt: createdAt,
      ...options.overrides
    })
  }
}

/** A reveal of the card issued at `at(offsetMillis)`, expiring five minutes later. */
export const reveal = (stored: Card.StoredCard, offsetMillis = 0): CardReveal.StoredReveal => {
  const createdAt = Fixtures.at(offsetMillis)
  return {
    tokenHash: hash(),
    platformId: stored.platformId as Platform.PlatformId,
    cardId: stored.card.id,
    createdAt,
    expiresAt: DateTime.add(createdAt, { minutes: 5 })
  }
}
