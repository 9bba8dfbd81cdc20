import { Schema } from "effect"
import { CountryCode, FieldFormat } from "@payrail/account-formats"
import { Currency, JsonObject, SchemaClass } from "../kernel/index.js"

/** The customer fields a platform can require of a counterparty (the reference's `CustomerInfoFieldName`). */
export const CustomerInfoFieldName = Schema.Literal(
  "FULL_NAME",
  "BIRTH_DATE",
  "NATIONALITY",
  "PHONE_NUMBER",
  "EMAIL",
  "POSTAL_ADDRESS",
  "TAX_ID",
  "REGISTRATION_NUMBER",
  "USER_TYPE",
  "COUNTRY_OF_RESIDENCE",
  "ACCOUNT_IDENTIFIER",
  "FI_LEGAL_ENTITY_NAME",
  "FI_ADDRESS",
  "PURPOSE_OF_PAYMENT",
  "ULTIMATE_INSTITUTION_COUNTRY",
  "IDENTIFIER",
  "BUSINESS_TYPE",
  "COMPANY_LEGAL_NAME",
  "ID_TYPE",
  "ID_NUMBER"
)
export type CustomerInfoFieldName = typeof CustomerInfoFieldName.Type

/** A counterparty field the platform asks for, and whether a payment without it is refused. */
export const CounterpartyField = Schema.Struct({
  name: CustomerInfoFieldName,
  mandatory: Schema.Boolean
}).annotations({ identifier: "CounterpartyFieldDefinition" })
export type CounterpartyField = typeof CounterpartyField.Type

/** The directions of payment a currency is enabled for. */
export const TransactionType = Schema.Literal("INCOMING", "OUTGOING")
export type TransactionType = typeof TransactionType.Type

/** An amount in minor units: a non-negative integer no larger than JavaScript represents exactly. */
export const MinorUnits = Schema.Int.pipe(
  Schema.between(0, Number.MAX_SAFE_INTEGER, { description: `an integer from 0 to ${Number.MAX_SAFE_INTEGER}` })
)

/**
 * A currency the platform transacts in, with its per-transaction bounds in minor units (`minAmount` ≤ `maxAmount`
 * is checked where a configuration is changed, `PlatformConfigUpdate`). Records stored before the counterparty
 * fields and transaction types existed read as "none required" and "both directions".
 */
export class SupportedCurrency extends SchemaClass.Class<SupportedCurrency>("SupportedCurrency")({
  currencyCode: Currency.CurrencyCode,
  minAmount: MinorUnits,
  maxAmount: MinorUnits,
  requiredCounterpartyFields: Schema.optionalWith(Schema.Array(CounterpartyField), { default: () => [] }),
  enabledTransactionTypes: Schema.optionalWith(Schema.Array(TransactionType), {
    default: () => ["INCOMING", "OUTGOING"]
  })
}) {}

const httpUrlMessage = "an absolute http or https URL"

/** An absolute `http:` or `https:` URL with a host, at most 2048 characters (whether https is required depends on the environment). */
export const HttpUrl = FieldFormat.Text(2048).pipe(
  Schema.filter(
    (text) => {
      if (!URL.canParse(text)) return false
      const url = new URL(text)
      return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.length > 0
    },
    { description: httpUrlMessage, jsonSchema: { format: "uri" } }
  )
)

/** An `https:` URL (logos are fetched by customers' browsers, so never over plain http). */
export const HttpsUrl = HttpUrl.pipe(
  Schema.filter((text) => text.startsWith("https:"), {
    description: "an absolute https URL",
    jsonSchema: { format: "uri" }
  })
)

/** A DNS name: dot-separated labels of letters, digits and hyphens, at most 253 characters. */
export const DomainName = Schema.String.pipe(
  Schema.maxLength(253, { description: "a domain name of at most 253 characters" }),
  Schema.pattern(
    /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/,
    {
      description: "a domain name such as payments.example.com"
    }
  )
)

/** One-time-password length of the embedded wallet's email login: 4 to 12 characters. */
export const OtpLength = Schema.Int.pipe(Schema.between(4, 12, { description: "an integer from 4 to 12" }))
/** How long an embedded wallet OTP stays valid: 1 second to 1 day. */
export const OtpExpirationSeconds = Schema.Int.pipe(
  Schema.between(1, 86_400, { description: "an integer from 1 to 86400" })
)

/** A WebAuthn relying party id: the platform's domain (or `localhost` during development). */
export const PasskeyRpId = Schema.Union(Schema.Literal("localhost"), DomainName).annotations({
  description: "a domain name such as example.com, or localhost"
})

/** An OIDC issuer whose ID tokens `OAUTH` credentials accept, with where its signing keys are. */
export const OauthIssuer = Schema.Struct({
  issuer: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(2048)),
  jwksUrl: Schema.optional(HttpsUrl),
  jwks: Schema.optional(Schema.Array(JsonObject.JsonObject))
}).annotations({ identifier: "OauthIssuer" })
export type OauthIssuer = typeof OauthIssuer.Type

/**
 * How the embedded wallet's logins look and behave. Present only once configured. Beyond the reference's fields:
 * `passkeyRpId` and `passkeyOrigins` (the WebAuthn relying party passkeys are bound to, and the page origins allowed
 * to use them) and `oauthIssuers` (the OIDC issuers `OAUTH` credentials accept).
 */
export class EmbeddedWalletConfig extends SchemaClass.Class<EmbeddedWalletConfig>("EmbeddedWalletConfig")({
  appName: Schema.optional(FieldFormat.Text(255)),
  otpLength: Schema.optionalWith(OtpLength, { default: () => 6 }),
  alphanumeric: Schema.optionalWith(Schema.Boolean, { default: () => false }),
  expirationSeconds: Schema.optionalWith(OtpExpirationSeconds, { default: () => 300 }),
  sendFromEmailAddress: Schema.optional(FieldFormat.Email),
  sendFromEmailSenderName: Schema.optionalWith(FieldFormat.Text(255), { default: () => "Notifications" }),
  replyToEmailAddress: Schema.optional(FieldFormat.Email),
  logoUrl: Schema.optional(HttpsUrl),
  passkeyRpId: Schema.optional(PasskeyRpId),
  passkeyOrigins: Schema.optional(Schema.Array(HttpUrl)),
  oauthIssuers: Schema.optional(Schema.Array(OauthIssuer))
}) {}

/** The only fee type the reference defines. */
export const FeeType = Schema.Literal("CROSS_CURRENCY_TRANSACTION")
export type FeeType = typeof FeeType.Type

/** The source currencies a fee can be configured for (the reference supports USD only). */
export const FeeSourceCurrency = Schema.Literal("USD")

/** A fixed fee in minor units of `currency`. */
export const FixedFee = Schema.Struct({ amount: MinorUnits, currency: Currency.CurrencyCode }).annotations({
  identifier: "FixedFee"
})

/** A platform fee on cross-currency transactions from `sourceCurrency`; both parts zero means no fee. */
export class FeeConfig extends SchemaClass.Class<FeeConfig>("FeeConfig")({
  feeType: FeeType,
  sourceCurrency: FeeSourceCurrency,
  variableFeeBps: Schema.Int.pipe(Schema.between(0, 10_000, { description: "an integer from 0 to 10000" })),
  fixedFee: FixedFee
}) {}

/** Whether a fee configuration charges anything (both parts zero deactivates it). */
export const isActiveFee = (fee: FeeConfig): boolean => fee.variableFeeBps > 0 || fee.fixedFee.amount > 0

/**
 * How the platform is configured: what it supports, where its webhooks go, and the flags verification and
 * counterparty rules depend on. Records stored before `feeConfigs` existed read as having none.
 */
export class PlatformConfig extends SchemaClass.Class<PlatformConfig>("PlatformConfig")({
  supportedCurrencies: Schema.Array(SupportedCurrency),
  isRegulatedFinancialInstitution: Schema.Boolean,
  skipPaperwork: Schema.Boolean,
  region: CountryCode.CountryCode,
  umaDomain: Schema.String,
  proxyUmaSubdomain: Schema.optional(Schema.String),
  webhookEndpoint: Schema.optional(Schema.String),
  /**
   * The platform must apply counterparty rules (for example the EU travel rule) to crypto transfers, so new
   * self-custody wallets need an `ownershipType` and first-party ones an ownership verification.
   */
  subjectToCounterpartyRules: Schema.optionalWith(Schema.Boolean, { default: () => false }),
  embeddedWalletConfig: Schema.optional(EmbeddedWalletConfig),
  feeConfigs: Schema.optionalWith(Schema.Array(FeeConfig), { default: () => [] }),
  /**
   * Incoming UMA payments wait `PENDING` for the platform's decision (its webhook reply, or
   * `POST /transactions/{id}/approve|reject` before the deadline) instead of completing at once.
   */
  incomingPaymentApproval: Schema.optionalWith(Schema.Boolean, { default: () => false })
}) {}
