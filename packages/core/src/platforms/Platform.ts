import { Schema } from "effect"
import { Currency, PlatformId as KernelPlatformId, SchemaClass } from "../kernel/index.js"
import { PlatformConfig } from "./PlatformConfig.js"

/** `Platform:<uuid>`: the API client that owns customers, accounts and tokens (the kernel's tenant id). */
export const PlatformId = KernelPlatformId.PlatformId
export type PlatformId = KernelPlatformId.PlatformId

/** Sandbox platforms simulate providers with the spec's magic values; production platforms use real providers. */
export const Environment = Schema.Literal("SANDBOX", "PRODUCTION")
export type Environment = typeof Environment.Type

/** The configuration schemas live in `PlatformConfig`; re-exported here for existing callers. */
export { PlatformConfig, SupportedCurrency } from "./PlatformConfig.js"

/** A platform record. */
export class Platform extends SchemaClass.Class<Platform>("Platform")({
  id: PlatformId,
  name: Schema.String,
  environment: Environment,
  config: PlatformConfig,
  /**
   * How far the platform's sandbox clock has been advanced, in seconds (`POST /sandbox/clock/advance`); always zero
   * for production platforms. Stores keep it apart from the record, so a configuration change never overwrites it.
   */
  clockOffsetSeconds: Schema.optionalWith(Schema.NonNegativeInt, { default: () => 0 }),
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc
}) {}

/** Whether the platform lists the platform stablecoin (6 decimals) among its currencies. */
export const supportsPlatformStablecoin = (platform: Platform): boolean =>
  platform.config.supportedCurrencies.some((currency) => currency.currencyCode === Currency.platformStablecoinCode)

/** Whether verification outcomes resolve when the customer is created rather than on submission. */
export const resolvesVerificationAtCreation = (platform: Platform): boolean =>
  platform.config.isRegulatedFinancialInstitution || platform.config.skipPaperwork
