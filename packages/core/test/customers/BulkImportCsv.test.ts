import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { BulkImportCsv } from "@payrail/core"

const header = BulkImportCsv.columns
const row = (values: Partial<Record<BulkImportCsv.Column, string>>) => header.map((column) => values[column] ?? "")

const ada = {
  umaAddress: "Ada@UMA.example.com",
  platformCustomerId: "ada-1",
  customerType: "INDIVIDUAL",
  fullName: "Ada Lovelace",
  birthDate: "1990-01-15",
  addressLine1: "1 Main St",
  city: "London",
  state: "LDN",
  postalCode: "N1 9GU",
  country: "GB"
}

describe("BulkImportCsv", () => {
  it("accepts a header naming each known column once, and names what is wrong with any other", () => {
    expect(Either.isRight(BulkImportCsv.checkHeader([...header]))).toBe(true)
    expect(BulkImportCsv.checkHeader(["umaAddress", "customerType", "nickname", "customerType"])).toEqual(
      Either.left({
        missingColumns: ["platformCustomerId", "addressLine1", "city", "state", "postalCode", "country"],
        unknownColumns: ["nickname"],
        duplicateColumns: ["customerType"]
      })
    )
  })

  it("makes a row the body POST /customers takes, with its UMA address normalized", () => {
    const parsed = BulkImportCsv.toCustomer(header, row(ada))
    expect(parsed).toEqual(
      Either.right({
        umaAddress: "$ada@uma.example.com",
        request: {
          customerType: "INDIVIDUAL",
          platformCustomerId: "ada-1",
          fullName: "Ada Lovelace",
          birthDate: "1990-01-15",
          address: { line1: "1 Main St", city: "London", state: "LDN", postalCode: "N1 9GU", country: "GB" }
        }
      })
    )
  })

  it("reports every bad cell by its column, as POST /customers would reject it", () => {
    const parsed = BulkImportCsv.toCustomer(
      header,
      row({ ...ada, fullName: "", birthDate: "15/01/1990", country: "Britain", umaAddress: "not an address" })
    )
    expect(Either.map(Either.flip(parsed), (errors) => errors.map((error) => error.field))).toEqual(
      Either.right(["fullName", "birthDate", "country", "umaAddress"])
    )
    const business = BulkImportCsv.toCustomer(header, row({ ...ada, customerType: "BUSINESS" }))
    expect(Either.map(Either.flip(business), (errors) => errors.map((error) => error.field))).toEqual(
      Either.right(["businessLegalName"])
    )
    expect(Either.flip(BulkImportCsv.toCustomer(header, ["a", "b"]))).toEqual(
      Either.right([expect.objectContaining({ field: "row" })])
    )
  })
})
