import { describe, expect, it } from "@effect/vitest"
import { Either, JSONSchema, ParseResult, Schema } from "effect"
import { AccountInfoExamples, ExternalAccountInfo, FiatAccountInfo, PaymentRails } from "../src/index.js"

const { exampleOf } = AccountInfoExamples
const decode = Schema.decodeUnknownEither(ExternalAccountInfo.ExternalAccountInfo, { errors: "all" })
const encode = Schema.encodeSync(ExternalAccountInfo.ExternalAccountInfo)
const fiatTypes = Object.keys(PaymentRails.railsByAccountType) as ReadonlyArray<PaymentRails.FiatAccountType>

const decoded = (accountInfo: unknown) => {
  const result = decode(accountInfo)
  if (Either.isLeft(result)) throw new Error(ParseResult.TreeFormatter.formatErrorSync(result.left))
  return result.right
}

const railsIn = (info: ExternalAccountInfo.ExternalAccountInfo) => ("paymentRails" in info ? info.paymentRails : [])

/** The distinct paths of the problems of a failed decode (`paymentRails.1`). */
const problems = (accountInfo: unknown) => {
  const result = decode(accountInfo)
  if (Either.isRight(result)) throw new Error("expected a failure")
  return [...new Set(ParseResult.ArrayFormatter.formatErrorSync(result.left).map((issue) => issue.path.join(".")))]
}

describe("PaymentRails", () => {
  it("has a row for exactly the fiat account types, each with rails of its own", () => {
    const isFiat = Schema.is(FiatAccountInfo.FiatAccountInfo)
    for (const accountType of ExternalAccountInfo.AccountType.literals) {
      const fiat = isFiat(decoded(exampleOf(accountType)))
      expect([accountType, PaymentRails.isFiatAccountType(accountType)]).toEqual([accountType, fiat])
      if (PaymentRails.isFiatAccountType(accountType)) {
        expect(PaymentRails.railsOf(accountType).length).toBeGreaterThan(0)
      }
    }
    expect(fiatTypes).toHaveLength(FiatAccountInfo.FiatAccountInfo.members.length)
    expect(PaymentRails.railsOf("GBP_ACCOUNT")).toEqual(["FASTER_PAYMENTS"])
    expect(PaymentRails.railsOf("USD_ACCOUNT")).toEqual(["ACH", "WIRE", "RTP", "FEDNOW"])
    expect(PaymentRails.railsOf("KES_ACCOUNT")).toEqual(["MOBILE_MONEY"])
  })

  it.each(fiatTypes)("answers every rail of %s when none is sent, and encodes it", (accountType) => {
    const info = decoded(exampleOf(accountType))
    expect(railsIn(info)).toEqual(PaymentRails.railsOf(accountType))
    expect(encode(info)).toMatchObject({ paymentRails: PaymentRails.railsOf(accountType) })
  })

  it.each(fiatTypes)("keeps a subset of the rails of %s as sent", (accountType) => {
    const subset = PaymentRails.railsOf(accountType).slice(-1)
    const info = decoded({ ...exampleOf(accountType), paymentRails: subset })
    expect(railsIn(info)).toEqual(subset)
    expect(decoded(encode(info))).toEqual(info)
  })

  it.each(fiatTypes)("refuses a rail of another type on %s at its index", (accountType) => {
    const own = PaymentRails.railsOf(accountType)
    const foreign = PaymentRails.PaymentRail.literals.find((rail) => !(own as ReadonlyArray<string>).includes(rail))
    expect(problems({ ...exampleOf(accountType), paymentRails: [own[0], foreign] })).toEqual(["paymentRails.1"])
  })

  it("refuses an empty list, a repeated rail and a value that is not a list", () => {
    const usd = exampleOf("USD_ACCOUNT")
    expect(problems({ ...usd, paymentRails: [] })).toEqual(["paymentRails"])
    expect(problems({ ...usd, paymentRails: ["ACH", "ACH"] })).toEqual(["paymentRails"])
    expect(problems({ ...usd, paymentRails: "ACH" })).toEqual(["paymentRails"])
  })

  it("gives wallets and Lightning destinations no rails, and refuses them there", () => {
    for (const accountType of ["ETHEREUM_WALLET", "LIGHTNING", "SPARK_WALLET"] as const) {
      expect(decoded(exampleOf(accountType))).not.toHaveProperty("paymentRails")
    }
    expect(
      Either.isLeft(
        Schema.decodeUnknownEither(ExternalAccountInfo.ExternalAccountInfo, { onExcessProperty: "error" })({
          ...exampleOf("BASE_WALLET"),
          paymentRails: ["ACH"]
        })
      )
    ).toBe(true)
  })

  it("documents the field with the rails of each type in the JSON Schema, optional in a request", () => {
    const document = JSONSchema.make(ExternalAccountInfo.ExternalAccountInfo) as {
      readonly $defs: Record<
        string,
        { readonly required: ReadonlyArray<string>; readonly properties: Record<string, unknown> }
      >
    }
    const gbp = document.$defs.GbpAccountInfo
    expect(gbp?.properties.paymentRails).toMatchObject({
      type: "array",
      minItems: 1,
      uniqueItems: true,
      items: { type: "string", enum: ["FASTER_PAYMENTS"] }
    })
    expect(gbp?.required).not.toContain("paymentRails")
    expect(document.$defs.UsdAccountInfo?.properties.paymentRails).toMatchObject({
      items: { enum: ["ACH", "WIRE", "RTP", "FEDNOW"] }
    })
  })
})
