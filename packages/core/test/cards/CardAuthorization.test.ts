import { describe, expect, it } from "@effect/vitest"
import { DateTime, Option } from "effect"
import { Card, CardAuthorization, CardHolds, type CardSimulation, Platform, SystemAccounts } from "@payrail/core"

const now = DateTime.unsafeMake(Date.UTC(2026, 4, 1))

const cardWith = (fields: Partial<ConstructorParameters<typeof Card.Card>[0]> = {}) =>
  new Card.Card({
    id: Card.CardId.make("Card:00000000-0000-4000-8000-000000000001"),
    customerId: "Customer:00000000-0000-4000-8000-000000000002",
    status: "ACTIVE",
    brand: "VISA",
    form: "VIRTUAL",
    last4: "4242",
    expMonth: 12,
    expYear: 2029,
    fundingSource: "InternalAccount:00000000-0000-4000-8000-000000000003",
    currency: "USD",
    processorRef: "p",
    issuerRef: "i",
    platformCardId: "c",
    createdAt: now,
    updatedAt: now,
    ...fields
  })

const decline = (card: Card.Card, kind: CardSimulation.AuthorizationKind, amount = 100, descriptor = "Shop") =>
  Option.getOrUndefined(CardAuthorization.declineOf(card, kind, amount, descriptor))

describe("CardAuthorization.declineOf", () => {
  it("declines a debit for the card's status, the limit (exactly the limit passes) and the descriptor", () => {
    expect(decline(cardWith(), "AUTHORIZATION")).toBeUndefined()
    expect(decline(cardWith({ status: "FROZEN" }), "AUTHORIZATION")).toBe("CARD_PAUSED")
    expect(decline(cardWith({ status: "PROCESSING" }), "AUTHORIZATION")).toBe("CARD_NOT_ACTIVE")
    expect(decline(cardWith({ status: "CLOSED" }), "FINANCIAL_AUTHORIZATION")).toBe("CARD_NOT_ACTIVE")
    expect(decline(cardWith({ maxSpendPerTransaction: 100 }), "AUTHORIZATION", 100)).toBeUndefined()
    expect(decline(cardWith({ maxSpendPerTransaction: 100 }), "AUTHORIZATION", 101)).toBe(
      "TRANSACTION_SIZE_LIMIT_EXCEEDED"
    )
    expect(decline(cardWith(), "AUTHORIZATION", 1, "Shop 002")).toBe("INSUFFICIENT_FUNDS")
    expect(decline(cardWith(), "FINANCIAL_AUTHORIZATION", 1, "Shop 003")).toBe("CARD_PAUSED")
    expect(decline(cardWith(), "AUTHORIZATION", 1, "Shop 005")).toBeUndefined()
  })

  it("declines credits for the status only; the credit advice never, unless the card has no funding source", () => {
    const limited = cardWith({ maxSpendPerTransaction: 1 })
    expect(decline(limited, "CREDIT_AUTHORIZATION", 500, "Shop 002")).toBeUndefined()
    expect(decline(cardWith({ status: "FROZEN" }), "FINANCIAL_CREDIT_AUTHORIZATION")).toBe("CARD_PAUSED")
    expect(decline(cardWith({ status: "FROZEN" }), "CREDIT_AUTHORIZATION_ADVICE")).toBeUndefined()
    const { fundingSource: _detached, ...closed } = cardWith({ status: "CLOSED" })
    expect(decline(new Card.Card(closed), "CREDIT_AUTHORIZATION_ADVICE")).toBe("CARD_NOT_ACTIVE")
  })
})

describe("CardHolds.entriesOf", () => {
  it("moves between the funding account and the platform's rail clearing, summing to zero", () => {
    const platformId = Platform.PlatformId.make("Platform:00000000-0000-4000-8000-000000000009")
    const movement = {
      platformId,
      fundingAccountId: "InternalAccount:x",
      currency: "USD",
      amountMinor: 250n,
      idempotencyKey: "k",
      description: "d"
    }
    const clearing = SystemAccounts.accountId(platformId, "RAIL_CLEARING", "USD")
    expect(CardHolds.entriesOf({ ...movement, direction: "DEBIT" })).toEqual([
      { accountId: "InternalAccount:x", currency: "USD", amountMinor: -250n },
      { accountId: clearing, currency: "USD", amountMinor: 250n }
    ])
    expect(CardHolds.entriesOf({ ...movement, direction: "CREDIT" })).toEqual([
      { accountId: "InternalAccount:x", currency: "USD", amountMinor: 250n },
      { accountId: clearing, currency: "USD", amountMinor: -250n }
    ])
  })
})
