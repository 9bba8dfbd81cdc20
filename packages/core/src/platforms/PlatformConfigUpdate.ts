import { DateTime, Either, Schema } from "effect"
import { FieldFormat } from "@payrail/account-formats"
import { Currency, FieldError, InvalidInput } from "../kernel/index.js"
import type { Environment, Platform } from "./Platform.js"
import {
  CounterpartyField,
  DomainName,
  FeeConfig,
  FeeSourceCurrency,
  FeeType,
  FixedFee,
  HttpsUrl,
  HttpUrl,
  isActiveFee,
  OauthIssuer,
  PasskeyRpId,
  MinorUnits,
  OtpExpirationSeconds,
  OtpLength,
  PlatformConfig,
  SupportedCurrency,
  TransactionType,
  EmbeddedWalletConfig
} from "./PlatformConfig.js"

const strict = { errors: "all", onExcessProperty: "error" } as const

/** One supported currency as a PATCH gives it; the counterparty fields and transaction types default as stored. */
export const SupportedCurrencyRequest = Schema.Struct({
  currencyCode: Currency.CurrencyCode,
  minAmount: MinorUnits,
  maxAmount: MinorUnits,
  requiredCounterpartyFields: Schema.optionalWith(Schema.Array(CounterpartyField), { exact: true }),
  enabledTransactionTypes: Schema.optionalWith(Schema.Array(TransactionType), { exact: true })
}).annotations({ identifier: "PlatformCurrencyConfigRequest", parseOptions: strict })

/** The embedded wallet settings a PATCH changes; omitted fields keep their value (or their default, the first time). */
export const EmbeddedWalletConfigRequest = Schema.Struct({
  appName: Schema.optionalWith(FieldFormat.Text(255), { exact: true }),
  otpLength: Schema.optionalWith(OtpLength, { exact: true }),
  alphanumeric: Schema.optionalWith(Schema.Boolean, { exact: true }),
  expirationSeconds: Schema.optionalWith(OtpExpirationSeconds, { exact: true }),
  sendFromEmailAddress: Schema.optionalWith(FieldFormat.Email, { exact: true }),
  sendFromEmailSenderName: Schema.optionalWith(FieldFormat.Text(255), { exact: true }),
  replyToEmailAddress: Schema.optionalWith(FieldFormat.Email, { exact: true }),
  logoUrl: Schema.optionalWith(HttpsUrl, { exact: true }),
  passkeyRpId: Schema.optionalWith(PasskeyRpId, { exact: true }),
  passkeyOrigins: Schema.optionalWith(Schema.Array(HttpUrl).pipe(Schema.maxItems(20)), { exact: true }),
  oauthIssuers: Schema.optionalWith(Schema.Array(OauthIssuer).pipe(Schema.maxItems(20)), { exact: true })
}).annotations({ identifier: "EmbeddedWalletConfigRequest", parseOptions: strict })

/** One fee configuration as a PATCH gives it: merged into the stored ones by `(feeType, sourceCurrency)`. */
export const FeeConfigRequest = Schema.Struct({
  feeType: FeeType,
  sourceCurrency: FeeSourceCurrency,
  variableFeeBps: Schema.Int.pipe(Schema.between(0, 10_000, { description: "an integer from 0 to 10000" })),
  fixedFee: FixedFee
}).annotations({ identifier: "FeeConfigRequest", parseOptions: strict })

/**
 * `PATCH /config`: every field optional; an omitted field is unchanged. `supportedCurrencies` replaces the list,
 * `embeddedWalletConfig` merges field by field, `feeConfigs` merges by `(feeType, sourceCurrency)`, and
 * `webhookEndpoint: null` removes the endpoint. Unknown fields are refused.
 */
export const UpdatePlatformConfigRequest = Schema.Struct({
  umaDomain: Schema.optionalWith(DomainName, { exact: true }),
  webhookEndpoint: Schema.optionalWith(Schema.NullOr(HttpUrl), { exact: true }),
  supportedCurrencies: Schema.optionalWith(Schema.Array(SupportedCurrencyRequest), { exact: true }),
  embeddedWalletConfig: Schema.optionalWith(EmbeddedWalletConfigRequest, { exact: true }),
  feeConfigs: Schema.optionalWith(Schema.Array(FeeConfigRequest), { exact: true }),
  isRegulatedFinancialInstitution: Schema.optionalWith(Schema.Boolean, { exact: true }),
  skipPaperwork: Schema.optionalWith(Schema.Boolean, { exact: true }),
  subjectToCounterpartyRules: Schema.optionalWith(Schema.Boolean, { exact: true }),
  incomingPaymentApproval: Schema.optionalWith(Schema.Boolean, { exact: true })
}).annotations({ identifier: "UpdatePlatformConfigRequest", parseOptions: strict })
export type UpdatePlatformConfigRequest = typeof UpdatePlatformConfigRequest.Type

/**
 * The flags only the operator may change on a production platform (they decide whether customers go through
 * verification); a sandbox platform sets them itself to exercise every path.
 */
export const operatorFlagsInProduction = ["isRegulatedFinancialInstitution", "skipPaperwork"] as const

const fieldError = (field: string, message: string) => new FieldError.FieldError({ field, message })

const duplicates = <A>(items: ReadonlyArray<A>, key: (item: A) => string): ReadonlyArray<number> => {
  const seen = new Set<string>()
  const repeated: Array<number> = []
  items.forEach((item, index) => {
    const value = key(item)
    if (seen.has(value)) repeated.push(index)
    seen.add(value)
  })
  return repeated
}

/** The field errors of a request that the schema cannot see: rules across fields and rules of the environment. */
export const check = (
  request: UpdatePlatformConfigRequest,
  environment: Environment,
  current: PlatformConfig
): ReadonlyArray<FieldError.FieldError> => {
  const errors: Array<FieldError.FieldError> = []
  if (
    environment === "PRODUCTION" &&
    typeof request.webhookEndpoint === "string" &&
    !request.webhookEndpoint.startsWith("https:")
  ) {
    errors.push(fieldError("webhookEndpoint", "must be an https URL on a production platform"))
  }
  const currencies = request.supportedCurrencies ?? []
  currencies.forEach((currency, index) => {
    if (currency.minAmount > currency.maxAmount) {
      errors.push(fieldError(`supportedCurrencies.${index}.minAmount`, "must not be greater than maxAmount"))
    }
    for (const repeated of duplicates(currency.requiredCounterpartyFields ?? [], (field) => field.name)) {
      errors.push(
        fieldError(`supportedCurrencies.${index}.requiredCounterpartyFields.${repeated}.name`, "must not repeat")
      )
    }
    for (const repeated of duplicates(currency.enabledTransactionTypes ?? [], (type) => type)) {
      errors.push(fieldError(`supportedCurrencies.${index}.enabledTransactionTypes.${repeated}`, "must not repeat"))
    }
  })
  for (const repeated of duplicates(currencies, (currency) => currency.currencyCode)) {
    errors.push(fieldError(`supportedCurrencies.${repeated}.currencyCode`, "must not repeat"))
  }
  const fees = request.feeConfigs ?? []
  fees.forEach((fee, index) => {
    if (fee.fixedFee.currency !== fee.sourceCurrency) {
      errors.push(fieldError(`feeConfigs.${index}.fixedFee.currency`, "must be the fee's sourceCurrency"))
    }
  })
  for (const repeated of duplicates(fees, (fee) => `${fee.feeType}/${fee.sourceCurrency}`)) {
    errors.push(fieldError(`feeConfigs.${repeated}`, "must not repeat a (feeType, sourceCurrency) pair"))
  }
  if (environment === "PRODUCTION") {
    for (const flag of operatorFlagsInProduction) {
      const wanted = request[flag]
      if (wanted !== undefined && wanted !== current[flag]) {
        errors.push(fieldError(flag, "can only be changed by the operator on a production platform"))
      }
    }
  }
  return errors
}

const mergeFees = (current: ReadonlyArray<FeeConfig>, changes: ReadonlyArray<FeeConfig>): ReadonlyArray<FeeConfig> => {
  const key = (fee: FeeConfig) => `${fee.feeType}/${fee.sourceCurrency}`
  const merged = new Map(current.map((fee) => [key(fee), fee]))
  for (const fee of changes) {
    if (isActiveFee(fee)) merged.set(key(fee), fee)
    else merged.delete(key(fee))
  }
  return Array.from(merged.values())
}

/**
 * The platform's configuration with the request applied, or `INVALID_INPUT` naming every invalid field (all of
 * them, not the first).
 */
export const apply = (
  platform: Platform,
  request: UpdatePlatformConfigRequest
): Either.Either<PlatformConfig, InvalidInput.InvalidInput> => {
  const current = platform.config
  const errors = check(request, platform.environment, current)
  if (errors.length > 0) return Either.left(InvalidInput.InvalidInput.withErrors(errors))
  const { embeddedWalletConfig, feeConfigs, supportedCurrencies, webhookEndpoint, ...flags } = request
  const { webhookEndpoint: _previous, ...kept } = current
  const endpoint = webhookEndpoint === undefined ? current.webhookEndpoint : (webhookEndpoint ?? undefined)
  return Either.right(
    new PlatformConfig({
      ...kept,
      ...flags,
      ...(endpoint === undefined ? {} : { webhookEndpoint: endpoint }),
      supportedCurrencies:
        supportedCurrencies === undefined
          ? current.supportedCurrencies
          : supportedCurrencies.map((currency) => new SupportedCurrency(currency)),
      embeddedWalletConfig:
        embeddedWalletConfig === undefined
          ? current.embeddedWalletConfig
          : new EmbeddedWalletConfig({ ...current.embeddedWalletConfig, ...embeddedWalletConfig }),
      feeConfigs:
        feeConfigs === undefined
          ? current.feeConfigs
          : mergeFees(
              current.feeConfigs,
              feeConfigs.map((fee) => new FeeConfig(fee))
            )
    })
  )
}

/**
 * The `updatedAt` of a change made at `now` to a record last changed at `previous`: `now`, or 1 ms past `previous`
 * when the clock has not moved past it, so every change yields a new `updatedAt` (the store's update is guarded
 * on it).
 */
export const nextUpdatedAt = (previous: DateTime.Utc, now: DateTime.Utc): DateTime.Utc =>
  DateTime.greaterThan(now, previous) ? now : DateTime.add(previous, { millis: 1 })
