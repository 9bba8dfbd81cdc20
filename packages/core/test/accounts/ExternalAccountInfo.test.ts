import { describe, expect, it } from "@effect/vitest"
import { Either, JSONSchema, Option, ParseResult, Schema } from "effect"
import { AccountTypeCurrency, ExternalAccountInfo, FieldError } from "@payrail/core"
import { AccountInfoExamples } from "@payrail/account-formats"

const { exampleOf, invoice, person } = AccountInfoExamples

const Request = Schema.Struct({ currency: Schema.String, accountInfo: ExternalAccountInfo.ExternalAccountInfo })
const decode = Schema.decodeUnknownEither(ExternalAccountInfo.ExternalAccountInfo, { errors: "all" })

const errorsOf = (accountInfo: unknown) => {
  const result = Schema.decodeUnknownEither(Request, { errors: "all" })({ currency: "USD", accountInfo })
  if (Either.isRight(result)) throw new Error("expected a failure")
  return FieldError.fromParseIssue((result.left as ParseResult.ParseError).issue)
}

const decoded = (accountInfo: unknown) => Either.getOrThrow(decode(accountInfo))

describe("ExternalAccountInfo", () => {
  it("covers exactly the spec's account types", () => {
    const [unknown] = errorsOf({ accountType: "BTC_WALLET" })
    expect([...(unknown?.constraint?.enum ?? [])].sort()).toEqual([...ExternalAccountInfo.AccountType.literals].sort())
    expect(ExternalAccountInfo.ExternalAccountInfo.members).toHaveLength(50)
  })

  it.each(ExternalAccountInfo.AccountType.literals)("decodes a valid %s", (accountType) => {
    const result = decode(exampleOf(accountType))
    if (Either.isLeft(result)) throw new Error(JSON.stringify(FieldError.fromParseIssue(result.left.issue)))
    expect(result.right.accountType).toBe(accountType)
  })

  it("lists every invalid field of a USD account with its constraint, under the parent's path", () => {
    const errors = errorsOf({
      ...exampleOf("USD_ACCOUNT"),
      accountNumber: "12-34",
      routingNumber: "021000022",
      beneficiary: { ...person, address: { line1: "1 Main St", postalCode: "", country: "US" } }
    })
    expect(errors).toEqual([
      new FieldError.FieldError({
        field: "accountInfo.accountNumber",
        constraint: { pattern: "^[0-9]{4,17}$" },
        message: "must be an account number of 4 to 17 digits"
      }),
      new FieldError.FieldError({
        field: "accountInfo.routingNumber",
        constraint: { format: "aba-routing-number", pattern: "^[0-9]{9}$", minLength: 9, maxLength: 9 },
        message: "must be a 9-digit ABA routing number with a valid check digit"
      }),
      new FieldError.FieldError({
        field: "accountInfo.beneficiary.address.postalCode",
        constraint: { minLength: 1 },
        message: "must be a non-empty string"
      })
    ])
    expect(JSON.stringify(errors)).not.toContain("021000022")
  })

  it("reports a rail of another type at its index with the type's rails, and a repeated rail at the list", () => {
    expect(errorsOf({ ...exampleOf("GBP_ACCOUNT"), paymentRails: ["FASTER_PAYMENTS", "SEPA"] })).toEqual([
      new FieldError.FieldError({
        field: "accountInfo.paymentRails.1",
        constraint: { enum: ["FASTER_PAYMENTS"] },
        message: "must be one of FASTER_PAYMENTS"
      })
    ])
    expect(errorsOf({ ...exampleOf("USD_ACCOUNT"), paymentRails: ["ACH", "ACH"] })).toEqual([
      new FieldError.FieldError({ field: "accountInfo.paymentRails", message: "must be a list of distinct rails" })
    ])
    expect(errorsOf({ ...exampleOf("USD_ACCOUNT"), paymentRails: [] })).toEqual([
      expect.objectContaining({ field: "accountInfo.paymentRails", message: "must be a non-empty list of rails" })
    ])
  })

  it("reports missing fields, a wrong beneficiary type and an unknown account type", () => {
    expect(errorsOf({ accountType: "MXN_ACCOUNT" }).map((error) => [error.field, error.message])).toEqual([
      ["accountInfo.clabeNumber", "is required"],
      ["accountInfo.beneficiary", "is required"]
    ])
    expect(errorsOf({ ...exampleOf("GBP_ACCOUNT"), beneficiary: { beneficiaryType: "ROBOT" } })[0]).toMatchObject({
      field: "accountInfo.beneficiary.beneficiaryType",
      constraint: { enum: ["INDIVIDUAL", "BUSINESS"] }
    })
    expect(errorsOf({ accountType: "BTC_WALLET" })[0]?.field).toBe("accountInfo.accountType")
  })

  it("applies the per-currency beneficiary requirements and the shared business shape", () => {
    expect(errorsOf({ ...exampleOf("EUR_ACCOUNT"), beneficiary: person }).map((error) => error.field)).toEqual([
      "accountInfo.beneficiary.countryOfResidence"
    ])
    expect(errorsOf({ ...exampleOf("AED_ACCOUNT"), beneficiary: person }).map((error) => error.field)).toEqual([
      "accountInfo.beneficiary.address"
    ])
    const business = { beneficiaryType: "BUSINESS", legalName: "Acme Corporation, Inc.", taxId: "98-7654321" }
    expect(decoded({ ...exampleOf("EUR_ACCOUNT"), beneficiary: business }).accountType).toBe("EUR_ACCOUNT")
  })

  it("checks rules that span fields at the accountInfo path, once the fields are valid", () => {
    const rule = (accountInfo: unknown) => errorsOf(accountInfo).map((error) => [error.field, error.message])
    expect(rule({ accountType: "BDT_ACCOUNT", bankName: "Sonali", beneficiary: person })).toEqual([
      ["accountInfo", "must be an account with an accountNumber or a phoneNumber"]
    ])
    expect(rule({ ...exampleOf("BRL_ACCOUNT"), pixKeyType: "EMAIL" })).toEqual([
      ["accountInfo", "must be an account whose pixKey has the form its pixKeyType names"]
    ])
    expect(rule({ ...exampleOf("INR_ACCOUNT"), rail: "NEFT" })[0]?.[0]).toBe("accountInfo")
    expect(rule({ ...exampleOf("XOF_ACCOUNT"), region: "TG" })[0]?.[0]).toBe("accountInfo")
    expect(rule({ accountType: "LIGHTNING", invoice, lightningAddress: "ada@getalby.com" })).toEqual([
      ["accountInfo", "must be a Lightning destination with exactly one of invoice, bolt12 or lightningAddress"]
    ])
    expect(rule({ accountType: "LIGHTNING" })[0]?.[0]).toBe("accountInfo")
  })

  it("reports an invalid field rather than the span rule when both are wrong", () => {
    expect(
      errorsOf({
        accountType: "SWIFT_ACCOUNT",
        country: "ZZ",
        swiftCode: "GTBINGLA",
        bankName: "GTB",
        beneficiary: person
      }).map((error) => error.field)
    ).toEqual(["accountInfo.country"])
  })

  it("builds a JSON Schema for the OpenAPI document", () => {
    const document = JSONSchema.make(Request) as { $defs: Record<string, unknown> }
    expect(Object.keys(document.$defs)).toEqual(
      expect.arrayContaining(["UsdAccountInfo", "SparkWalletAccountInfo", "AbaRoutingNumber"])
    )
  })
})

describe("accountTypeCurrency", () => {
  it("ties each type to its currencies, SWIFT to any fiat currency", () => {
    expect(AccountTypeCurrency.allowsCurrency("USD_ACCOUNT", "USD")).toBe(true)
    expect(AccountTypeCurrency.allowsCurrency("USD_ACCOUNT", "EUR")).toBe(false)
    expect(AccountTypeCurrency.allowsCurrency("SLV_ACCOUNT", "USD")).toBe(true)
    expect(AccountTypeCurrency.allowsCurrency("SWIFT_ACCOUNT", "NGN")).toBe(true)
    expect(AccountTypeCurrency.allowsCurrency("SWIFT_ACCOUNT", "USDC")).toBe(false)
    expect(AccountTypeCurrency.allowsCurrency("SWIFT_ACCOUNT", "XYZ")).toBe(false)
    expect(AccountTypeCurrency.allowsCurrency("ETHEREUM_WALLET", "USDT")).toBe(true)
    expect(AccountTypeCurrency.allowsCurrency("BASE_WALLET", "USDT")).toBe(false)
    expect(AccountTypeCurrency.allowsCurrency("LIGHTNING_ACCOUNT", "BTC")).toBe(true)
    expect(AccountTypeCurrency.currencyError("USD_ACCOUNT", "USD")).toEqual(Option.none())
    expect(AccountTypeCurrency.currencyError("ETHEREUM_WALLET", "BTC")).toEqual(
      Option.some(
        new FieldError.FieldError({
          field: "currency",
          constraint: { enum: ["USDC", "USDT"] },
          message: "must be a currency that ETHEREUM_WALLET carries"
        })
      )
    )
    expect(Option.map(AccountTypeCurrency.currencyError("SWIFT_ACCOUNT", "BTC"), (error) => error.constraint)).toEqual(
      Option.some(undefined)
    )
    for (const accountType of ExternalAccountInfo.AccountType.literals) {
      const allowed = AccountTypeCurrency.accountTypeCurrency[accountType]
      expect(allowed === "ANY_FIAT" || allowed.length > 0).toBe(true)
    }
  })
})

describe("identifierOf", () => {
  it("names the identifier whose suffix drives sandbox outcomes", () => {
    const id = (accountType: ExternalAccountInfo.AccountType, overrides: Record<string, unknown> = {}) =>
      ExternalAccountInfo.identifierOf(decoded({ ...exampleOf(accountType), ...overrides }))
    expect(id("USD_ACCOUNT")).toBe("123456789")
    expect(id("EUR_ACCOUNT")).toBe("DE89370400440532013000")
    expect(id("MXN_ACCOUNT")).toBe("032180000118359719")
    expect(id("KES_ACCOUNT")).toBe("+254712345678")
    expect(id("COP_ACCOUNT")).toBe("+573001234567")
    expect(id("PKR_ACCOUNT")).toBe("PK36SCBL0000001123456702")
    expect(id("TRON_WALLET")).toBe("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t")
    expect(id("LIGHTNING", { lightningAddress: "alice102@getalby.com" })).toBe("alice102")
    expect(id("INR_ACCOUNT")).toBe("ada")
    expect(id("BRL_ACCOUNT", { pixKey: "ada105@example.com", pixKeyType: "EMAIL" })).toBe("ada105")
    expect(id("LIGHTNING_ACCOUNT")).toBe(invoice)
  })

  it("keys the destination itself, scoped by its bank and case-insensitive where the identifier is", () => {
    const key = (accountType: ExternalAccountInfo.AccountType, overrides: Record<string, unknown> = {}) =>
      ExternalAccountInfo.uniqueKeyOf(decoded({ ...exampleOf(accountType), ...overrides }))
    expect(key("USD_ACCOUNT")).toBe("021000021/123456789")
    expect(key("USD_ACCOUNT", { routingNumber: "011000015" })).not.toBe(key("USD_ACCOUNT"))
    expect(key("GBP_ACCOUNT")).toBe("601613/31926819")
    expect(key("BASE_WALLET")).toBe(key("BASE_WALLET", { address: "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed" }))
    expect(key("LIGHTNING", { lightningAddress: "Ada@GetAlby.com" })).toBe("ada@getalby.com")
    expect(key("LIGHTNING", { lightningAddress: "ada@other.com" })).not.toBe(key("LIGHTNING"))
    expect(key("SOLANA_WALLET")).toBe("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v")
    for (const accountType of ExternalAccountInfo.AccountType.literals)
      expect(key(accountType).length).toBeGreaterThan(0)
  })

  it("tells self-custody wallets apart", () => {
    expect(ExternalAccountInfo.isSelfCustodyWallet(decoded(exampleOf("BASE_WALLET")))).toBe(true)
    expect(ExternalAccountInfo.isSelfCustodyWallet(decoded(exampleOf("ETHEREUM_WALLET")))).toBe(false)
    expect(ExternalAccountInfo.isSelfCustodyWallet(decoded(exampleOf("LIGHTNING")))).toBe(false)
    expect(ExternalAccountInfo.isSelfCustodyWallet(decoded(exampleOf("USD_ACCOUNT")))).toBe(false)
  })
})
