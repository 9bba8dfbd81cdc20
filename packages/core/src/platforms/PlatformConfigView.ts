import { Schema } from "effect"
import { type Platform, PlatformId } from "./Platform.js"
import { EmbeddedWalletConfig, FeeConfig, SupportedCurrency } from "./PlatformConfig.js"
import { SchemaClass } from "../kernel/index.js"

/**
 * A platform's configuration as `GET`/`PATCH /config` answer it: the reference's `PlatformConfig` (its `id` is
 * the platform's id, its timestamps the platform record's) plus the flags our rules depend on. Internal settings
 * (the region) are not shown.
 */
export class PlatformConfigView extends SchemaClass.Class<PlatformConfigView>("PlatformConfig")({
  id: PlatformId,
  umaDomain: Schema.String,
  proxyUmaSubdomain: Schema.optional(Schema.String),
  webhookEndpoint: Schema.optional(Schema.String),
  supportedCurrencies: Schema.Array(SupportedCurrency),
  isRegulatedFinancialInstitution: Schema.Boolean,
  skipPaperwork: Schema.Boolean,
  subjectToCounterpartyRules: Schema.Boolean,
  embeddedWalletConfig: Schema.optional(EmbeddedWalletConfig),
  feeConfigs: Schema.Array(FeeConfig),
  incomingPaymentApproval: Schema.Boolean,
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc
}) {}

/** The configuration view of a platform. */
export const of = (platform: Platform): PlatformConfigView => {
  const { region: _region, ...config } = platform.config
  return new PlatformConfigView({
    ...config,
    id: platform.id,
    createdAt: platform.createdAt,
    updatedAt: platform.updatedAt
  })
}
