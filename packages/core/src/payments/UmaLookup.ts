import { Duration, Schema } from "effect"
import { Currency, JsonObject, ResourceId, SchemaClass } from "../kernel/index.js"
import { PlatformConfig } from "../platforms/index.js"

/** `Lookup:<uuid>`: a receiver lookup, which an UMA quote names as its `lookupId`. */
export const LookupId = ResourceId.make("Lookup")
export type LookupId = typeof LookupId.Type

/** How long a lookup can back a quote: 15 minutes from its creation, by the platform's clock. */
export const lifetime: Duration.Duration = Duration.minutes(15)

/**
 * A currency the receiver accepts: `estimatedExchangeRate` is units of the platform's first supported currency per
 * unit of this one (indicative: the quote prices the payment), `min` and `max` the platform's per-transaction
 * bounds of this currency, in its minor units.
 */
export const ReceiverCurrency = Schema.Struct({
  currency: Currency.Currency,
  estimatedExchangeRate: Schema.Number,
  min: Schema.Int,
  max: Schema.Int
}).annotations({ identifier: "ReceiverSupportedCurrency" })
export type ReceiverCurrency = typeof ReceiverCurrency.Type

/** Who was looked up: an UMA address (normalized, see `UmaAddressInput`) or an external account of the platform. */
export const Receiver = Schema.Union(
  Schema.TaggedStruct("UmaAddress", { umaAddress: Schema.String }),
  Schema.TaggedStruct("ExternalAccount", { accountId: Schema.String })
).annotations({ identifier: "UmaLookupReceiver" })
export type Receiver = typeof Receiver.Type

/**
 * A stored receiver lookup: the receiver, the currencies it accepts (preferred first), the payer data it asks for
 * (`mandatory` ones must come with the quote in `senderCustomerInfo`), who asked (`senderUmaAddress`, `customerId`
 * when given) and until when a quote may use it (`expiresAt`, `lifetime` after `createdAt`). Immutable once stored.
 */
export class UmaLookup extends SchemaClass.Class<UmaLookup>("UmaLookup")({
  id: LookupId,
  receiver: Receiver,
  senderUmaAddress: Schema.optional(Schema.String),
  customerId: Schema.optional(Schema.String),
  supportedCurrencies: Schema.Array(ReceiverCurrency),
  requiredPayerDataFields: Schema.Array(PlatformConfig.CounterpartyField),
  /** The payee data the receiver's side returned (`UmaDirectory`'s `receiverCustomerInfo`), for the quote. */
  counterpartyInformation: Schema.optional(JsonObject.JsonObject),
  createdAt: Schema.DateTimeUtc,
  expiresAt: Schema.DateTimeUtc
}) {}

/**
 * The answer of `GET /receiver/uma/{receiverUmaAddress}` and `GET /receiver/external-account/{accountId}`, in the
 * reference's shape: `receiverUmaAddress` or `accountId` names the receiver.
 */
export const ReceiverLookupResponse = Schema.Struct({
  supportedCurrencies: Schema.Array(ReceiverCurrency),
  requiredPayerDataFields: Schema.Array(PlatformConfig.CounterpartyField),
  lookupId: Schema.String,
  receiverUmaAddress: Schema.optional(Schema.String),
  accountId: Schema.optional(Schema.String)
}).annotations({ identifier: "ReceiverLookupResponse" })
export type ReceiverLookupResponse = typeof ReceiverLookupResponse.Type

/** The wire answer of a lookup. */
export const toResponse = (lookup: UmaLookup): ReceiverLookupResponse => ({
  supportedCurrencies: lookup.supportedCurrencies,
  requiredPayerDataFields: lookup.requiredPayerDataFields,
  lookupId: lookup.id,
  ...(lookup.receiver._tag === "UmaAddress"
    ? { receiverUmaAddress: lookup.receiver.umaAddress }
    : { accountId: lookup.receiver.accountId })
})

/** The mandatory payer fields of the lookup that `senderCustomerInfo` lacks (absent, null or empty text). */
export const missingPayerData = (
  lookup: UmaLookup,
  senderCustomerInfo: { readonly [field: string]: unknown } | undefined
): ReadonlyArray<string> =>
  lookup.requiredPayerDataFields
    .filter((field) => field.mandatory)
    .map((field) => field.name)
    .filter((name) => {
      const value = senderCustomerInfo?.[name]
      return value === undefined || value === null || (typeof value === "string" && value.trim() === "")
    })
