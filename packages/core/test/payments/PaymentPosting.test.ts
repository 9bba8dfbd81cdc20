import { describe, expect, it } from "@effect/vitest"
import { DateTime, Option } from "effect"
import { Currency, Ledger, PaymentPosting, Platform, Quote, SystemAccounts, Transaction } from "@payrail/core"

const platformId = Platform.PlatformId.make("Platform:00000000-0000-4000-8000-000000000000")
const now = DateTime.unsafeMake("2026-01-01T00:00:00Z")
const currency = (code: string) => Option.getOrThrow(Currency.find(code))
const internal = (n: number) => `InternalAccount:00000000-0000-4000-8000-00000000000${n}`
const external = "ExternalAccount:00000000-0000-4000-8000-000000000009"

const quoteOf = (fields: {
  source: Quote.QuoteSource
  destination: Quote.QuoteDestination
  sending: string
  receiving: string
  total: number
  fees: number
  received: number
}) =>
  new Quote.Quote({
    id: Quote.QuoteId.make("Quote:00000000-0000-4000-8000-000000000001"),
    status: "PENDING",
    createdAt: now,
    updatedAt: now,
    expiresAt: now,
    source: fields.source,
    destination: fields.destination,
    sendingCurrency: currency(fields.sending),
    receivingCurrency: currency(fields.receiving),
    lockedCurrencySide: "SENDING",
    lockedCurrencyAmount: fields.total,
    totalSendingAmount: fields.total,
    totalReceivingAmount: fields.received,
    exchangeRate: 1,
    feesIncluded: fields.fees,
    platformFeesIncluded: 0,
    transactionId: Transaction.TransactionId.make("Transaction:00000000-0000-4000-8000-000000000002"),
    paymentInstructions: []
  })

const sums = (entries: ReadonlyArray<Ledger.Entry>) => {
  const byCurrency = new Map<string, bigint>()
  for (const entry of entries)
    byCurrency.set(entry.currency, (byCurrency.get(entry.currency) ?? 0n) + entry.amountMinor)
  return byCurrency
}

const system = (kind: SystemAccounts.Kind, code: string) => SystemAccounts.accountId(platformId, kind, code)

describe("PaymentPosting.entriesOf", () => {
  it("moves one currency between internal accounts, fees to the fee account", () => {
    const entries = PaymentPosting.entriesOf(
      platformId,
      quoteOf({
        source: { sourceType: "ACCOUNT", accountId: internal(1) },
        destination: { destinationType: "ACCOUNT", accountId: internal(2) },
        sending: "USD",
        receiving: "USD",
        total: 1_000,
        fees: 10,
        received: 990
      })
    )
    expect(entries).toEqual([
      { accountId: internal(1), currency: "USD", amountMinor: -1_000n },
      { accountId: system("FEES", "USD"), currency: "USD", amountMinor: 10n },
      { accountId: internal(2), currency: "USD", amountMinor: 990n }
    ])
    expect([...sums(entries).values()]).toEqual([0n])
  })

  it("converts through the FX accounts and pays out through rail clearing, balanced per currency", () => {
    const entries = PaymentPosting.entriesOf(
      platformId,
      quoteOf({
        source: { sourceType: "ACCOUNT", accountId: internal(1) },
        destination: { destinationType: "ACCOUNT", accountId: external },
        sending: "USD",
        receiving: "MXN",
        total: 10_000,
        fees: 25,
        received: 170_000
      })
    )
    expect(entries).toContainEqual({ accountId: system("FX", "USD"), currency: "USD", amountMinor: 9_975n })
    expect(entries).toContainEqual({ accountId: system("FX", "MXN"), currency: "MXN", amountMinor: -170_000n })
    expect(entries).toContainEqual({
      accountId: system("RAIL_CLEARING", "MXN"),
      currency: "MXN",
      amountMinor: 170_000n
    })
    expect(sums(entries)).toEqual(
      new Map([
        ["USD", 0n],
        ["MXN", 0n]
      ])
    )
    expect(sums(PaymentPosting.reversed(entries))).toEqual(
      new Map([
        ["USD", 0n],
        ["MXN", 0n]
      ])
    )
  })

  it("drops zero entries and takes a pulled source from rail clearing", () => {
    const entries = PaymentPosting.entriesOf(
      platformId,
      quoteOf({
        source: { sourceType: "ACCOUNT", accountId: external },
        destination: { destinationType: "ACCOUNT", accountId: internal(2) },
        sending: "USD",
        receiving: "USD",
        total: 500,
        fees: 0,
        received: 500
      })
    )
    expect(entries).toEqual([
      { accountId: system("RAIL_CLEARING", "USD"), currency: "USD", amountMinor: -500n },
      { accountId: internal(2), currency: "USD", amountMinor: 500n }
    ])
  })
})
