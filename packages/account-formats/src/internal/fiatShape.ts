import { Schema } from "effect"
import * as Beneficiary from "../Beneficiary.js"
import { type FiatAccountType, paymentRailsField } from "../PaymentRails.js"

/** An optional request field that, when present, must not be `undefined` (exact optional). */
export const optional = <S extends Schema.Schema.Any>(schema: S) => Schema.optionalWith(schema, { exact: true })

/**
 * A fiat `accountInfo` shape: the `accountType` literal, the currency-specific `fields`, the `paymentRails` of the
 * type (optional in a request, always present once decoded) and a required `beneficiary` that is the currency's
 * `individual` shape or the shared business shape.
 */
export const fiat = <T extends FiatAccountType, F extends Schema.Struct.Fields, I extends Schema.Schema.AnyNoContext>(
  accountType: T,
  fields: F,
  individual: I
) =>
  Schema.Struct({
    accountType: Schema.Literal(accountType),
    ...fields,
    paymentRails: paymentRailsField(accountType),
    beneficiary: Beneficiary.of(individual)
  })

/** A rule on a whole account: at least one of `keys` is present. Reported at the account's path. */
export const oneOf =
  (keys: ReadonlyArray<string>, description: string) =>
  <S extends Schema.Schema.AnyNoContext>(self: S) =>
    self.pipe(
      Schema.filter(
        (account) => keys.some((key) => (account as Readonly<Record<string, unknown>>)[key] !== undefined),
        { description }
      )
    )
