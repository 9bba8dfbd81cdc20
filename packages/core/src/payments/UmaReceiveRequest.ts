import { Schema } from "effect"
import { FieldFormat } from "@payrail/account-formats"
import { Customer } from "../customers/index.js"
import { Currency, Money } from "../kernel/index.js"

/**
 * Body of `POST /sandbox/uma/receive`: an UMA payment of `receivingCurrencyAmount` minor units of
 * `receivingCurrencyCode` from `senderUmaAddress` to a customer named by `receiverUmaAddress` or `customerId`
 * (exactly one). The addresses are texts here: a malformed one is refused as `INVALID_UMA_ADDRESS`, not as a
 * schema failure.
 */
export const UmaReceiveRequest = Schema.Struct({
  senderUmaAddress: FieldFormat.Text(255),
  receiverUmaAddress: Schema.optional(FieldFormat.Text(255)),
  customerId: Schema.optional(Customer.CustomerId),
  receivingCurrencyCode: Currency.CurrencyCode,
  receivingCurrencyAmount: Money.PositiveAmountMinor
}).annotations({ identifier: "SandboxUmaReceiveRequest" })
export type UmaReceiveRequest = typeof UmaReceiveRequest.Type
