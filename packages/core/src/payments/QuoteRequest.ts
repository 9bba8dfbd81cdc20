import { Schema } from "effect"
import { FieldFormat } from "@payrail/account-formats"
import { Customer } from "../customers/index.js"
import { Currency, JsonObject, Money } from "../kernel/index.js"
import { LockedCurrencySide, PurposeOfPayment, QuoteId } from "./Quote.js"
import { LookupId } from "./UmaLookup.js"

const optional = <S extends Schema.Schema.All>(schema: S) => Schema.optionalWith(schema, { exact: true })

/** The largest `lockedCurrencyAmount` the reference accepts: 9e15 minor units. */
export const lockedAmountMax = 9_000_000_000_000_000

/** An internal or external account id, as a quote's source or destination names it. */
export const AccountId = Schema.String.pipe(
  Schema.pattern(/^(InternalAccount|ExternalAccount):[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, {
    description: "an InternalAccount:<uuid> or ExternalAccount:<uuid> id"
  })
).annotations({ identifier: "PaymentAccountId" })

/** A quote's source in a request: an account (internal, or an external one that can be pulled) or the payer in real time. */
export const QuoteSourceRequest = Schema.Union(
  Schema.Struct({
    sourceType: Schema.Literal("ACCOUNT"),
    accountId: AccountId,
    customerId: optional(Customer.CustomerId)
  }),
  Schema.Struct({
    sourceType: Schema.Literal("REALTIME_FUNDING"),
    currency: Currency.CurrencyCode,
    customerId: optional(Customer.CustomerId),
    cryptoNetwork: optional(FieldFormat.Text(64))
  })
).annotations({ identifier: "QuoteSourceRequest" })
export type QuoteSourceRequest = typeof QuoteSourceRequest.Type

/** A quote's destination account in a request: internal or external, optionally naming the rail to pay it on. */
export const AccountDestinationRequest = Schema.Struct({
  destinationType: Schema.Literal("ACCOUNT"),
  accountId: AccountId,
  paymentRail: optional(FieldFormat.Text(64))
}).annotations({ identifier: "AccountDestinationRequest" })
export type AccountDestinationRequest = typeof AccountDestinationRequest.Type

/**
 * A quote's UMA destination in a request: the receiver's address as looked up (`$` optional; a malformed one is
 * `INVALID_UMA_ADDRESS`), and the currency it receives (default: the lookup's first supported currency).
 */
export const UmaDestinationRequest = Schema.Struct({
  destinationType: Schema.Literal("UMA_ADDRESS"),
  umaAddress: FieldFormat.Text(320),
  currency: optional(Currency.CurrencyCode)
}).annotations({ identifier: "UmaDestinationRequest" })
export type UmaDestinationRequest = typeof UmaDestinationRequest.Type

/** A quote's destination in a request: an account, or an UMA address (which needs the quote's `lookupId`). */
export const QuoteDestinationRequest = Schema.Union(AccountDestinationRequest, UmaDestinationRequest).annotations({
  identifier: "QuoteDestinationRequest"
})
export type QuoteDestinationRequest = typeof QuoteDestinationRequest.Type

/** The platform's fee for this quote instead of its `feeConfigs`: a fixed part and basis points. */
export const PlatformFeeOverride = Schema.Struct({
  platformFixedFee: Schema.Struct({
    amount: Schema.Int.pipe(Schema.between(0, Number.MAX_SAFE_INTEGER)),
    currency: Currency.CurrencyCode
  }),
  platformVariableFeeBps: Schema.Int.pipe(Schema.between(0, 10_000, { description: "an integer from 0 to 10000" }))
}).annotations({ identifier: "PlatformFeeOverride" })
export type PlatformFeeOverride = typeof PlatformFeeOverride.Type

/**
 * Body of `POST /quotes`. `lockedCurrencyAmount` is in minor units of the locked side's currency (1 to 9e15);
 * `remittanceInformation` (at most 80 characters) travels with the payment to the receiving bank. `lookupId` (from
 * `GET /receiver/...`) is required for an UMA destination; `senderCustomerInfo` carries the payer data the lookup's
 * `requiredPayerDataFields` ask for, by field name. `scaFactor` is the reference's choice of the factor a payment
 * challenge asks for: `SMS_OTP` or `PASSKEY` (never `TOTP`, which no per-transaction challenge accepts); it is
 * checked and otherwise changes nothing, as every challenge a passkey may satisfy offers both factors.
 */
export const CreateQuoteRequest = Schema.Struct({
  source: QuoteSourceRequest,
  destination: QuoteDestinationRequest,
  lockedCurrencySide: LockedCurrencySide,
  lockedCurrencyAmount: Money.positiveAmountMinorUpTo(lockedAmountMax),
  description: optional(FieldFormat.Text(1000)),
  immediatelyExecute: optional(Schema.Boolean),
  purposeOfPayment: optional(PurposeOfPayment),
  remittanceInformation: optional(FieldFormat.Text(80)),
  platformFeeOverride: optional(PlatformFeeOverride),
  lookupId: optional(LookupId),
  senderCustomerInfo: optional(JsonObject.JsonObject),
  scaFactor: optional(Schema.Literal("SMS_OTP", "PASSKEY"))
}).annotations({ identifier: "QuoteRequest", parseOptions: { errors: "all", onExcessProperty: "error" } })
export type CreateQuoteRequest = typeof CreateQuoteRequest.Type

/** A quote id in a path. */
export const QuoteIdParam = QuoteId
