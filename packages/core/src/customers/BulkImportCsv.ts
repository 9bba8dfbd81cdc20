import { Array as Arr, Either, ParseResult, Schema } from "effect"
import { FieldError } from "../kernel/index.js"
import { CreateCustomerRequest } from "./CustomerRequest.js"
import { UmaAddress } from "./UmaAddress.js"

/**
 * The columns of a bulk customer import file, as the reference API names them. A header names each column at most
 * once, in any order; `requiredColumns` must all be there; no other column is accepted.
 */
export const columns = [
  "umaAddress",
  "platformCustomerId",
  "customerType",
  "fullName",
  "birthDate",
  "email",
  "businessLegalName",
  "businessRegistrationNumber",
  "businessTaxId",
  "addressLine1",
  "addressLine2",
  "city",
  "state",
  "postalCode",
  "country",
  "platformAccountId",
  "description",
  "endUserTermsVersion",
  "endUserTermsAcceptedAt",
  "endUserTermsIpAddress",
  "endUserTermsAcceptanceMethod"
] as const
export type Column = (typeof columns)[number]

/** The columns every file's header must name: those every customer, individual or business, needs. */
export const requiredColumns: ReadonlyArray<Column> = [
  "umaAddress",
  "platformCustomerId",
  "customerType",
  "addressLine1",
  "city",
  "state",
  "postalCode",
  "country"
]

/** What a row of each customer type must fill in, beyond the required columns. */
const requiredByType: Readonly<Record<string, ReadonlyArray<Column>>> = {
  INDIVIDUAL: ["fullName", "birthDate"],
  BUSINESS: ["businessLegalName"]
}

/** What is wrong with a header: the required columns it lacks, the columns it names that do not exist, twice. */
export interface HeaderProblems {
  readonly missingColumns: ReadonlyArray<string>
  readonly unknownColumns: ReadonlyArray<string>
  readonly duplicateColumns: ReadonlyArray<string>
}

/** The header's problems, `None`-like (`Right`) when it is a valid header. Column names are matched exactly. */
export const checkHeader = (cells: ReadonlyArray<string>): Either.Either<ReadonlyArray<Column>, HeaderProblems> => {
  const names = cells.map((cell) => cell.trim())
  const known = new Set<string>(columns)
  const unknownColumns = names.filter((name) => !known.has(name))
  const duplicateColumns = Arr.dedupe(names.filter((name, index) => names.indexOf(name) !== index))
  const missingColumns = requiredColumns.filter((column) => !names.includes(column))
  if (unknownColumns.length + duplicateColumns.length + missingColumns.length === 0) {
    return Either.right(names as ReadonlyArray<Column>)
  }
  return Either.left({ missingColumns, unknownColumns, duplicateColumns })
}

// Where each field of `POST /customers` comes from in a row: a failure on a field is reported on its column.
const columnOfField: Readonly<Record<string, Column>> = {
  customerType: "customerType",
  platformCustomerId: "platformCustomerId",
  fullName: "fullName",
  birthDate: "birthDate",
  email: "email",
  "address.line1": "addressLine1",
  "address.line2": "addressLine2",
  "address.city": "city",
  "address.state": "state",
  "address.postalCode": "postalCode",
  "address.country": "country",
  "businessInfo.legalName": "businessLegalName",
  "businessInfo.registrationNumber": "businessRegistrationNumber",
  "businessInfo.taxId": "businessTaxId",
  endUserTermsConsent: "endUserTermsVersion",
  "endUserTermsConsent.termsVersion": "endUserTermsVersion",
  "endUserTermsConsent.acceptedAt": "endUserTermsAcceptedAt",
  "endUserTermsConsent.ipAddress": "endUserTermsIpAddress",
  "endUserTermsConsent.acceptanceMethod": "endUserTermsAcceptanceMethod"
}

// The End User Terms consent's fields and their columns: a row filling any of them gives a consent, which must be
// complete and valid as on `POST /customers`.
const consentColumns = [
  ["termsVersion", "endUserTermsVersion"],
  ["acceptedAt", "endUserTermsAcceptedAt"],
  ["ipAddress", "endUserTermsIpAddress"],
  ["acceptanceMethod", "endUserTermsAcceptanceMethod"]
] as const

/** A field error of `POST /customers` (a dot path of its body) as one of the row's columns, where it has one. */
export const toColumn = (error: FieldError.FieldError): FieldError.FieldError => {
  const column = columnOfField[error.field]
  return column === undefined ? error : new FieldError.FieldError({ ...error, field: column })
}

/** A row of a valid file: what `Customers.create` takes, and the UMA address the customer is to have. */
export interface CustomerRow {
  readonly request: CreateCustomerRequest
  readonly umaAddress: UmaAddress
}

const decodeRequest = Schema.decodeUnknownEither(CreateCustomerRequest, { errors: "all" })
const decodeUma = Schema.decodeUnknownEither(UmaAddress)

const required = (column: string) => new FieldError.FieldError({ field: column, message: "is required" })

/**
 * A row as a customer to create, validated as `POST /customers` validates its body, or every invalid cell as a
 * field error named by its column. Empty cells are absent values. `umaAddress` may omit its leading `$` and is
 * compared in lowercase; `platformAccountId` and `description` are accepted and not stored. The `endUserTerms*`
 * columns, when a row fills any, are its `endUserTermsConsent`.
 */
export const toCustomer = (
  header: ReadonlyArray<Column>,
  cells: ReadonlyArray<string>
): Either.Either<CustomerRow, ReadonlyArray<FieldError.FieldError>> => {
  if (cells.length !== header.length) {
    return Either.left([
      new FieldError.FieldError({
        field: "row",
        message: `has ${cells.length} cells where the header has ${header.length} columns`
      })
    ])
  }
  const row = new Map<Column, string>()
  header.forEach((column, index) => {
    const value = (cells[index] as string).trim()
    if (value !== "") row.set(column, value)
  })
  const type = row.get("customerType")
  const missing = [...requiredColumns, ...(requiredByType[type ?? ""] ?? [])]
    .filter((column) => !row.has(column))
    .map(required)

  const address = Object.fromEntries(
    (
      [
        ["line1", "addressLine1"],
        ["line2", "addressLine2"],
        ["city", "city"],
        ["state", "state"],
        ["postalCode", "postalCode"],
        ["country", "country"]
      ] as const
    ).flatMap(([field, column]) => (row.has(column) ? [[field, row.get(column)]] : []))
  )
  const consent = Object.fromEntries(
    consentColumns.flatMap(([field, column]) => (row.has(column) ? [[field, row.get(column)]] : []))
  )
  const common = {
    customerType: type,
    ...(Object.keys(consent).length > 0 ? { endUserTermsConsent: consent } : {}),
    ...(row.has("platformCustomerId") ? { platformCustomerId: row.get("platformCustomerId") } : {}),
    ...(Object.keys(address).length > 0 ? { address } : {})
  }
  const body =
    type === "BUSINESS"
      ? {
          ...common,
          businessInfo: {
            legalName: row.get("businessLegalName") ?? "",
            ...(row.has("businessRegistrationNumber")
              ? { registrationNumber: row.get("businessRegistrationNumber") }
              : {}),
            ...(row.has("businessTaxId") ? { taxId: row.get("businessTaxId") } : {})
          }
        }
      : {
          ...common,
          ...(row.has("fullName") ? { fullName: row.get("fullName") } : {}),
          ...(row.has("birthDate") ? { birthDate: row.get("birthDate") } : {}),
          ...(row.has("email") ? { email: row.get("email") } : {})
        }
  const request = Either.mapLeft(decodeRequest(body), (error: ParseResult.ParseError) =>
    FieldError.fromParseIssue(error.issue).map(toColumn)
  )
  const given = row.get("umaAddress")
  const uma: Either.Either<UmaAddress, ReadonlyArray<FieldError.FieldError>> = given === undefined
    ? Either.left([])
    : Either.mapLeft(decodeUma(given.startsWith("$") ? given.toLowerCase() : `$${given.toLowerCase()}`), () => [
        new FieldError.FieldError({
          field: "umaAddress",
          message: "must be an UMA address $<username>@<domain> (username: 1-64 of a-z 0-9 . _ + -)"
        })
      ])
  const found = [...(Either.isLeft(request) ? request.left : []), ...(Either.isLeft(uma) ? uma.left : [])]
  const errors = [...missing]
  for (const error of found) if (!errors.some((known) => known.field === error.field)) errors.push(error)
  if (Either.isLeft(request) || Either.isLeft(uma) || errors.length > 0) return Either.left(errors)
  return Either.right({ request: request.right, umaAddress: uma.right })
}
