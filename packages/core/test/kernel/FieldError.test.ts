import { describe, expect, it } from "@effect/vitest"
import { Either, ParseResult, Schema } from "effect"
import { CustomerRequest, FieldError } from "@payrail/core"

const errorsOf = (schema: Schema.Schema.AnyNoContext, input: unknown) => {
  const result = Schema.decodeUnknownEither(schema, { errors: "all" })(input)
  if (Either.isRight(result)) throw new Error("expected a failure")
  return FieldError.fromParseIssue((result.left as ParseResult.ParseError).issue)
}

describe("FieldError.fromParseIssue", () => {
  it("names every invalid field once, with dot paths, constraints and value-free messages", () => {
    const errors = errorsOf(CustomerRequest.CreateCustomerRequest, {
      customerType: "INDIVIDUAL",
      email: "ada@",
      phoneNumber: "0044 20",
      birthDate: "1899-02-30",
      address: { line1: "", postalCode: "123", country: "us" }
    })
    expect(errors.map((error) => error.field)).toEqual([
      "email",
      "phoneNumber",
      "birthDate",
      "address.line1",
      "address.country"
    ])
    expect(errors[0]).toMatchObject({ constraint: { format: "email" }, message: "must be an email address" })
    expect(errors[1]?.constraint).toMatchObject({ format: "e.164", pattern: "^\\+[1-9]\\d{1,14}$" })
    expect(errors[3]?.constraint).toEqual({ minLength: 1 })
    const text = JSON.stringify(errors)
    for (const value of ["ada@", "0044 20", "1899-02-30", '"us"']) expect(text).not.toContain(value)
  })

  it("reports a missing required field and a wrong discriminator as an enum", () => {
    expect(errorsOf(CustomerRequest.CreateCustomerRequest, { customerType: "BUSINESS" })).toEqual([
      new FieldError.FieldError({ field: "businessInfo", message: "is required" })
    ])
    expect(errorsOf(CustomerRequest.CreateCustomerRequest, { customerType: 7 })[0]).toMatchObject({
      field: "customerType",
      constraint: { enum: ["INDIVIDUAL", "BUSINESS"] }
    })
  })

  it("reports a body that is not an object at the field 'body'", () => {
    expect(errorsOf(CustomerRequest.CreateCustomerRequest, "text")[0]?.field).toBe("body")
  })

  it("renders array indexes as path segments", () => {
    const errors = errorsOf(Schema.Struct({ tags: Schema.Array(Schema.String.pipe(Schema.maxLength(3))) }), {
      tags: ["ok", "too long", "also too long"]
    })
    expect(errors.map((error) => [error.field, error.constraint])).toEqual([
      ["tags.1", { maxLength: 3 }],
      ["tags.2", { maxLength: 3 }]
    ])
  })
})
