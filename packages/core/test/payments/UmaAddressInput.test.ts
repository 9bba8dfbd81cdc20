import { describe, expect, it } from "@effect/vitest"
import { DateTime, Effect, Option } from "effect"
import { UmaAddressInput, UmaLookup, Currency } from "@payrail/core"

describe("UmaAddressInput", () => {
  it("stores one form: lowercase, with the $ added when it was left out", () => {
    expect(UmaAddressInput.normalize("$alice@pay.example")).toEqual(Option.some("$alice@pay.example"))
    expect(UmaAddressInput.normalize("Alice@Pay.Example")).toEqual(Option.some("$alice@pay.example"))
    expect(UmaAddressInput.normalize("$pending.long.usd@sandbox.uma.money")).toEqual(
      Option.some("$pending.long.usd@sandbox.uma.money")
    )
  })

  it("refuses what is not $<username>@<domain>", () => {
    for (const written of [
      "",
      "$",
      "$@pay.example",
      "alice",
      "$alice@",
      "$alice@localhost",
      "$a b@pay.example",
      "$$a@x.io"
    ]) {
      expect([written, Option.isNone(UmaAddressInput.normalize(written))]).toEqual([written, true])
    }
    expect(UmaAddressInput.normalize(`$${"a".repeat(65)}@pay.example`)).toEqual(Option.none())
  })

  it.effect("fails with INVALID_UMA_ADDRESS naming the field", () =>
    Effect.gen(function* () {
      const refused = yield* Effect.flip(UmaAddressInput.parse("destination.umaAddress", "nope"))
      expect(refused).toMatchObject({ code: "INVALID_UMA_ADDRESS", details: { field: "destination.umaAddress" } })
    })
  )

  it("reads the domain and user of an address, and whether it is the platform's own", () => {
    const address = Option.getOrThrow(UmaAddressInput.normalize("$bob@Pay.Example"))
    expect(UmaAddressInput.domainOf(address)).toBe("pay.example")
    expect(UmaAddressInput.usernameOf(address)).toBe("bob")
  })
})

describe("UmaLookup", () => {
  const usd = Option.getOrThrow(Currency.find("USD"))
  const lookup = new UmaLookup.UmaLookup({
    id: UmaLookup.LookupId.make("Lookup:00000000-0000-4000-8000-000000000001"),
    receiver: { _tag: "UmaAddress", umaAddress: "$bob@pay.example" },
    supportedCurrencies: [{ currency: usd, estimatedExchangeRate: 1, min: 1, max: 100 }],
    requiredPayerDataFields: [
      { name: "FULL_NAME", mandatory: true },
      { name: "BIRTH_DATE", mandatory: true },
      { name: "EMAIL", mandatory: false }
    ],
    createdAt: DateTime.unsafeMake(0),
    expiresAt: DateTime.unsafeMake(900_000)
  })

  it("lists the mandatory payer fields that are absent, null or blank, in the lookup's order", () => {
    expect(UmaLookup.missingPayerData(lookup, undefined)).toEqual(["FULL_NAME", "BIRTH_DATE"])
    expect(UmaLookup.missingPayerData(lookup, { FULL_NAME: "  ", BIRTH_DATE: null, EMAIL: "" })).toEqual([
      "FULL_NAME",
      "BIRTH_DATE"
    ])
    expect(UmaLookup.missingPayerData(lookup, { FULL_NAME: "Bo", BIRTH_DATE: "1990-01-01" })).toEqual([])
    expect(UmaLookup.missingPayerData(lookup, { FULL_NAME: { first: "Bo" }, BIRTH_DATE: 1990 })).toEqual([])
  })

  it("answers the reference's shape, naming the receiver by address or account", () => {
    expect(UmaLookup.toResponse(lookup)).toEqual({
      supportedCurrencies: lookup.supportedCurrencies,
      requiredPayerDataFields: lookup.requiredPayerDataFields,
      lookupId: lookup.id,
      receiverUmaAddress: "$bob@pay.example"
    })
    const account = new UmaLookup.UmaLookup({
      ...lookup,
      receiver: { _tag: "ExternalAccount", accountId: "ExternalAccount:x" }
    })
    expect(UmaLookup.toResponse(account)).toMatchObject({ accountId: "ExternalAccount:x" })
    expect(UmaLookup.toResponse(account)).not.toHaveProperty("receiverUmaAddress")
  })
})
