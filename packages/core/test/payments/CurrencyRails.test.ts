import { describe, expect, it } from "@effect/vitest"
import { Option, Schema } from "effect"
import { Currency, CurrencyRails } from "@payrail/core"

describe("CurrencyRails", () => {
  it("gives every registry currency a default rail, first rail first", () => {
    for (const code of Currency.registry.keys()) {
      const rail = CurrencyRails.defaultRailOf(code)
      expect(Option.isSome(rail), code).toBe(true)
      expect(Schema.is(CurrencyRails.DestinationRail)(Option.getOrThrow(rail))).toBe(true)
    }
    const defaults = Object.fromEntries(
      ["USD", "EUR", "MXN", "BRL", "INR", "GBP", "KES", "BTC", "USDC", "USDT"].map((code) => [
        code,
        Option.getOrThrow(CurrencyRails.defaultRailOf(code))
      ])
    )
    expect(defaults).toEqual({
      USD: "ACH",
      EUR: "SEPA_INSTANT",
      MXN: "SPEI",
      BRL: "PIX",
      INR: "UPI",
      GBP: "FASTER_PAYMENTS",
      KES: "MOBILE_MONEY",
      BTC: "LIGHTNING",
      USDC: "SOLANA",
      USDT: "TRON"
    })
    expect(CurrencyRails.defaultRailOf("XYZ")).toEqual(Option.none())
  })
})
