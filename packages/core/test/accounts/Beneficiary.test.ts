import { describe, expect, it } from "@effect/vitest"
import { Either, ParseResult, Schema } from "effect"
import { Beneficiary, FieldError } from "@payrail/core"

const errorsOf = (schema: Schema.Schema.AnyNoContext, input: unknown) => {
  const result = Schema.decodeUnknownEither(schema, { errors: "all" })(input)
  if (Either.isRight(result)) throw new Error("expected a failure")
  return FieldError.fromParseIssue((result.left as ParseResult.ParseError).issue)
}

const usdIndividual = {
  beneficiaryType: "INDIVIDUAL",
  fullName: "John Doe",
  birthDate: "1990-01-15",
  nationality: "US",
  address: { line1: "123 Main Street", city: "San Francisco", state: "CA", postalCode: "94105", country: "US" }
}

describe("Beneficiary", () => {
  it("decodes the spec's USD individual and a business", () => {
    const beneficiary = Beneficiary.of(Beneficiary.Individual)
    expect(Schema.decodeUnknownSync(beneficiary)(usdIndividual)).toEqual(usdIndividual)
    const business = {
      beneficiaryType: "BUSINESS",
      legalName: "Acme Corporation, Inc.",
      registrationNumber: "C-1",
      taxId: "98-7654321"
    }
    expect(Schema.decodeUnknownSync(beneficiary)(business)).toEqual(business)
  })

  it("names every invalid field of an individual without echoing values", () => {
    const errors = errorsOf(Beneficiary.Individual, {
      beneficiaryType: "INDIVIDUAL",
      fullName: " ",
      birthDate: "1990-02-30",
      nationality: "usa",
      email: "john@",
      phoneNumber: "555-1234",
      address: { line1: "1 Main St", country: "US" }
    })
    expect(errors.map((error) => [error.field, error.constraint])).toEqual([
      ["fullName", { pattern: "^(?=[\\s\\S]*\\S)[^\\u0000]*$" }],
      ["birthDate", { format: "date" }],
      ["nationality", { format: "iso3166-1-alpha-2", pattern: "^[A-Z]{2}$" }],
      ["email", { format: "email" }],
      ["phoneNumber", { format: "e.164", pattern: "^\\+[1-9]\\d{1,14}$" }],
      ["address.postalCode", undefined]
    ])
    for (const value of ["1990-02-30", "usa", "john@", "555-1234"]) expect(JSON.stringify(errors)).not.toContain(value)
  })

  it("enforces the stricter individual shapes and the wallet owner shape", () => {
    const fields = (schema: Schema.Schema.AnyNoContext, input: unknown) =>
      errorsOf(schema, input).map((error) => error.field)
    const person = { beneficiaryType: "INDIVIDUAL", fullName: "Ada" }
    expect(fields(Beneficiary.IndividualWithPhoneAndResidence, person)).toEqual(["phoneNumber", "countryOfResidence"])
    expect(fields(Beneficiary.IndividualWithPhoneAndAddress, person)).toEqual(["phoneNumber", "address"])
    expect(fields(Beneficiary.WalletIndividual, person)).toEqual(["countryOfResidence"])
    expect(fields(Beneficiary.IndividualWithDocument, { ...person, documentType: "DNI" })).toEqual(["documentType"])
    expect(fields(Beneficiary.Business, { beneficiaryType: "BUSINESS" })).toEqual(["legalName"])
  })

  it("gives the name a rail compares", () => {
    expect(Beneficiary.nameOf({ beneficiaryType: "INDIVIDUAL", fullName: "Ada Lovelace" })).toBe("Ada Lovelace")
    expect(Beneficiary.nameOf({ beneficiaryType: "BUSINESS", legalName: "Acme" })).toBe("Acme")
  })
})
