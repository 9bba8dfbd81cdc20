import { describe, expect, it } from "@effect/vitest"
import { DateTime, Either } from "effect"
import { Stablecoin, StablecoinProviderAccount, StablecoinSupply } from "@payrail/core"

const coin = (decimals: number, baseCurrency = "USD") =>
  new Stablecoin.Stablecoin({
    id: Stablecoin.StablecoinId.make(`Stablecoin:${globalThis.crypto.randomUUID()}`),
    name: "Acme Dollar",
    symbol: "ACME",
    baseCurrency,
    network: "SPARK_MAINNET",
    decimals,
    issuanceStatus: "PROVISIONED",
    gridOperationsStatus: "NOT_ENABLED",
    networkTokenIdentifier: "btkn1",
    provider: "BRALE",
    stablecoinProviderAccountId: StablecoinProviderAccount.StablecoinProviderAccountId.make(
      `StablecoinProviderAccount:${globalThis.crypto.randomUUID()}`
    ),
    providerEnvironment: "SANDBOX",
    providerTokenIdentifier: "ACME",
    createdAt: DateTime.unsafeMake(0),
    updatedAt: DateTime.unsafeMake(0)
  })

const rule = (amount: string, stablecoin: Stablecoin.Stablecoin) =>
  Either.match(StablecoinSupply.baseMinor(amount, stablecoin), {
    onLeft: (error) => error.details.rule,
    onRight: (minor) => minor
  })

describe("StablecoinSupply.baseMinor", () => {
  it("values an amount in whole minor units of the base currency at the stablecoin's decimals", () => {
    expect(rule("1000000", coin(6))).toBe(100n)
    expect(rule("10000", coin(6))).toBe(1n)
    expect(rule("0001230000", coin(6))).toBe(123n)
    expect(rule("7", coin(2))).toBe(7n)
    expect(rule("7", coin(0))).toBe(700n)
    expect(rule("5", coin(6, "UGX"))).toBe("not_whole_base_unit")
    expect(rule("1000000", coin(6, "UGX"))).toBe(1n)
  })

  it("refuses zero, a fraction of a minor unit, and more than a balance holds", () => {
    expect(rule("0", coin(6))).toBe("zero")
    expect(rule("1000001", coin(6))).toBe("not_whole_base_unit")
    expect(rule("9999", coin(6))).toBe("not_whole_base_unit")
    expect(rule(`${9007199254740991n * 10000n}`, coin(6))).toBe(9007199254740991n)
    expect(rule(`${9007199254740992n * 10000n}`, coin(6))).toBe("too_large")
  })
})
