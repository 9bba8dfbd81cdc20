import { describe, expect, it } from "@effect/vitest"
import { Either, ParseResult, Schema } from "effect"
import * as fc from "fast-check"
import { BankIdentifier, FieldError } from "@payrail/core"

const errorsOf = (schema: Schema.Schema.AnyNoContext, input: unknown) => {
  const result = Schema.decodeUnknownEither(Schema.Struct({ value: schema }), { errors: "all" })({ value: input })
  if (Either.isRight(result)) throw new Error("expected a failure")
  return FieldError.fromParseIssue((result.left as ParseResult.ParseError).issue)
}

// Every string that differs from `value` in exactly one digit position.
const singleDigitChange = (value: string, positions: ReadonlyArray<number>) =>
  fc
    .tuple(fc.constantFrom(...positions), fc.integer({ min: 1, max: 9 }))
    .map(
      ([position, delta]) =>
        value.slice(0, position) + String((Number(value[position]) + delta) % 10) + value.slice(position + 1)
    )

const digitPositions = (value: string) => [...value].flatMap((char, index) => (/[0-9]/.test(char) ? [index] : []))

const routingNumbers = [
  "021000021",
  "011000015",
  "026009593",
  "121000358",
  "111000025",
  "322271627",
  "071000013",
  "053000196"
]
const ibans = [
  "DE89370400440532013000",
  "GB29NWBK60161331926819",
  "FR1420041010050500013M02606",
  "NL91ABNA0417164300",
  "BE68539007547034",
  "NO9386011117947",
  "MT84MALT011000012345MTLCAST001S",
  "AE070331234567890123456",
  "DK5000400440116243",
  "EG380019000500000000263180002",
  "PK36SCBL0000001123456702",
  "IL620108000000099999999",
  "TR330006100519786457841326",
  "BR1800360305000010009795493C1",
  "CH9300762011623852957",
  "ES9121000418450200051332",
  "IT60X0542811101000000123456",
  "SA0380000000608010167519",
  "LC55HEMM000100010012001200023015",
  "PL61109010140000071219812874"
]
const clabes = ["032180000118359719", "002010077777777771", "014027000000000008"]

describe("AbaRoutingNumber", () => {
  it("accepts real routing numbers", () => {
    for (const value of routingNumbers) expect(BankIdentifier.isAbaRoutingNumber(value)).toBe(true)
  })

  it("refuses wrong lengths, non-digits, unassigned prefixes and bad check digits", () => {
    for (const value of ["02100002", "0210000211", "02100002a", "021000022", "990000000", "000000000", "123456789"]) {
      expect(BankIdentifier.isAbaRoutingNumber(value)).toBe(false)
    }
  })

  it("detects any single-digit change", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...routingNumbers).chain((value) => singleDigitChange(value, digitPositions(value))),
        (changed) => {
          expect(BankIdentifier.isAbaRoutingNumber(changed)).toBe(false)
        }
      )
    )
  })

  it("reports its constraint without echoing the value", () => {
    const [error] = errorsOf(BankIdentifier.AbaRoutingNumber, "021000022")
    expect(error).toMatchObject({
      field: "value",
      constraint: { format: "aba-routing-number", pattern: "^[0-9]{9}$", minLength: 9, maxLength: 9 },
      message: "must be a 9-digit ABA routing number with a valid check digit"
    })
    expect(JSON.stringify(error)).not.toContain("021000022")
  })
})

describe("Iban", () => {
  it("accepts IBANs of many registry countries", () => {
    for (const value of ibans) expect(BankIdentifier.isIban(value), value).toBe(true)
  })

  it("refuses spaces, lower case, unknown countries, wrong country lengths and reserved check digits", () => {
    for (const value of [
      "GB29 NWBK 6016 1331 9268 19",
      "gb29nwbk60161331926819",
      "US29NWBK60161331926819",
      "GB29NWBK6016133192681",
      "DE8937040044053201300",
      "GB00NWBK60161331926819",
      "GB99NWBK60161331926819"
    ]) {
      expect(BankIdentifier.isIban(value), value).toBe(false)
    }
  })

  it("has a length for every registry country, between 15 and 34", () => {
    expect(BankIdentifier.ibanLengths.size).toBeGreaterThanOrEqual(89)
    for (const length of BankIdentifier.ibanLengths.values()) expect(length >= 15 && length <= 34).toBe(true)
  })

  it("detects any single-digit change", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ibans).chain((value) => singleDigitChange(value, digitPositions(value))),
        (changed) => {
          expect(BankIdentifier.isIban(changed)).toBe(false)
        }
      )
    )
  })

  it("restricts a country IBAN to its country and BBAN form", () => {
    const dk = Schema.is(BankIdentifier.countryIban("DK", "[0-9]{14}"))
    expect(dk("DK5000400440116243")).toBe(true)
    expect(dk("DE89370400440532013000")).toBe(false)
    expect(errorsOf(BankIdentifier.countryIban("DK", "[0-9]{14}"), "DE89370400440532013000")[0]?.constraint).toEqual({
      format: "iban",
      pattern: "^DK[0-9]{2}[0-9]{14}$",
      minLength: 18,
      maxLength: 18
    })
  })
})

describe("Clabe", () => {
  it("accepts CLABEs with valid check digits", () => {
    for (const value of clabes) expect(BankIdentifier.isClabe(value)).toBe(true)
  })

  it("refuses wrong lengths and non-digits", () => {
    for (const value of ["03218000011835971", "0321800001183597190", "03218000011835971a"]) {
      expect(BankIdentifier.isClabe(value)).toBe(false)
    }
  })

  it("detects any single-digit change", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...clabes).chain((value) => singleDigitChange(value, digitPositions(value))),
        (changed) => {
          expect(BankIdentifier.isClabe(changed)).toBe(false)
        }
      )
    )
  })
})

describe("other bank identifiers", () => {
  it("checks SWIFT/BIC structure and country", () => {
    for (const value of ["DEUTDEFF", "DEUTDEFF500", "HSBCHKHHHKH", "GTBINGLA", "CENAIDJA"]) {
      expect(BankIdentifier.isSwiftBic(value), value).toBe(true)
    }
    for (const value of ["DEUTDEF", "DEUTDEFF5", "DEUTZZFF", "deutdeff", "1EUTDEFF"]) {
      expect(BankIdentifier.isSwiftBic(value), value).toBe(false)
    }
  })

  it("checks sort codes, UK account numbers, IFSC and Canadian codes by form", () => {
    const cases: ReadonlyArray<readonly [Schema.Schema<string>, ReadonlyArray<string>, ReadonlyArray<string>]> = [
      [BankIdentifier.UkSortCode, ["601613"], ["60-16-13", "60161"]],
      [BankIdentifier.UkAccountNumber, ["31926819"], ["3192681", "3192681a"]],
      [BankIdentifier.Ifsc, ["HDFC0001234", "SBIN0ABC123"], ["HDFC1001234", "hdfc0001234", "HDFC000123"]],
      [BankIdentifier.CanadianInstitutionNumber, ["001"], ["01", "0001"]],
      [BankIdentifier.CanadianTransitNumber, ["00012"], ["0012", "000123"]]
    ]
    for (const [schema, valid, invalid] of cases) {
      for (const value of valid) expect(Schema.is(schema)(value), value).toBe(true)
      for (const value of invalid) expect(Schema.is(schema)(value), value).toBe(false)
    }
    expect(errorsOf(BankIdentifier.Ifsc, "x")[0]?.constraint).toEqual({
      format: "ifsc",
      pattern: "^[A-Z]{4}0[A-Z0-9]{6}$"
    })
  })
})
