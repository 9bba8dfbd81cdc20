import { Schema } from "effect"
import { CountryCode } from "@payrail/account-formats"
import { Currency, PlatformId as KernelPlatformId } from "../kernel/index.js"

/** `Platform:<uuid>`: the API client that owns customers, accounts and tokens (the kernel's tenant id). */
export const PlatformId = KernelPlatformId.PlatformId
export type PlatformId = KernelPlatformId.PlatformId

/** Sandbox platforms simulate providers with the spec's magic values; production platforms use real providers. */
export const Environment = Schema.Literal("SANDBOX", "PRODUCTION")
export type Environment = typeof Environment.Type

/** A currency the platform transacts in, with its per-transaction bounds in minor units. */
export class SupportedCurrency extends Schema.Class<SupportedCurrency>("SupportedCurrency")({
  currencyCode: Currency.CurrencyCode,
  minAmount: Schema.Int.pipe(Schema.nonNegative()),
  maxAmount: Schema.Int.pipe(Schema.nonNegative())
}) {}

/** How the platform is configured: what it supports and how verification behaves for its customers. */
export class PlatformConfig extends Schema.Class<PlatformConfig>("PlatformConfig")({
  supportedCurrencies: Schema.Array(SupportedCurrency),
  isRegulatedFinancialInstitution: Schema.Boolean,
  skipPaperwork: Schema.Boolean,
  region: CountryCode.CountryCode,
  umaDomain: Schema.String,
  webhookEndpoint: Schema.optional(Schema.String),
  /**
   * The platform must apply counterparty rules (for example the EU travel rule) to crypto transfers, so new
   * self-custody wallets need an `ownershipType` and first-party ones an ownership verification.
   */
  subjectToCounterpartyRules: Schema.optionalWith(Schema.Boolean, { default: () => false })
}) {}

/** A platform record. */
export class Platform extends Schema.Class<Platform>("Platform")({
  id: PlatformId,
  name: Schema.String,
  environment: Environment,
  config: PlatformConfig,
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc
}) {}

/** Whether the platform lists the platform stablecoin (6 decimals) among its currencies. */
export const supportsPlatformStablecoin = (platform: Platform): boolean =>
  platform.config.supportedCurrencies.some((currency) => currency.currencyCode === Currency.platformStablecoinCode)

/** Whether verification outcomes resolve when the customer is created rather than on submission. */
export const resolvesVerificationAtCreation = (platform: Platform): boolean =>
  platform.config.isRegulatedFinancialInstitution || platform.config.skipPaperwork
