import { Schema } from "effect"
import { FieldFormat } from "@payrail/account-formats"
import { Money } from "../kernel/index.js"
import { PurposeOfPayment } from "./Quote.js"
import { AccountId } from "./QuoteRequest.js"

const optional = <S extends Schema.Schema.All>(schema: S) => Schema.optionalWith(schema, { exact: true })

/**
 * Body of `POST /transfer-out` (deprecated: quotes do the same): a same-currency push from an internal account to an
 * external one. Without `amount`, the source's whole available balance is sent.
 */
export const TransferOutRequest = Schema.Struct({
  source: Schema.Struct({ accountId: AccountId }),
  destination: Schema.Struct({ accountId: AccountId, paymentRail: optional(FieldFormat.Text(64)) }),
  amount: optional(Money.PositiveAmountMinor),
  remittanceInformation: optional(FieldFormat.Text(80)),
  purposeOfPayment: optional(PurposeOfPayment)
}).annotations({ identifier: "TransferOutRequest", parseOptions: { errors: "all", onExcessProperty: "error" } })
export type TransferOutRequest = typeof TransferOutRequest.Type

/**
 * Body of `POST /transfer-in` (deprecated: quotes do the same): a same-currency pull from an external account that
 * can be pulled (ACH) into an internal account. `amount` is optional in the reference's shape but a pull needs one:
 * without it the request is refused naming the field.
 */
export const TransferInRequest = Schema.Struct({
  source: Schema.Struct({ accountId: AccountId }),
  destination: Schema.Struct({ accountId: AccountId }),
  amount: optional(Money.PositiveAmountMinor)
}).annotations({ identifier: "TransferInRequest", parseOptions: { errors: "all", onExcessProperty: "error" } })
export type TransferInRequest = typeof TransferInRequest.Type
