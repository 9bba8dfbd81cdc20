import { Schema } from "effect"
import { ResourceId, SchemaClass } from "../kernel/index.js"
import {
  ProviderEnvironment,
  StablecoinProviderAccountId,
  StablecoinProviderName
} from "./StablecoinProviderAccount.js"

/**
 * A stablecoin the platform issues through its provider, registered with Payrail (docs/stablecoins.md). Registering
 * links the provider's token to Payrail; it does not create the token. Its name, symbol, base currency and decimals
 * are the provider's.
 */

export const StablecoinId = ResourceId.make("Stablecoin")
export type StablecoinId = typeof StablecoinId.Type

/** The network namespace of `networkTokenIdentifier` (the reference's one value). */
export const StablecoinNetwork = Schema.Literal("SPARK_MAINNET")
export type StablecoinNetwork = typeof StablecoinNetwork.Type

/** The provider's issuance status: only a `PROVISIONED` stablecoin is minted or burned. */
export const IssuanceStatus = Schema.Literal("PENDING_REVIEW", "PROVISIONING", "PROVISIONED", "REJECTED", "FAILED")
export type IssuanceStatus = typeof IssuanceStatus.Type

/** Whether the stablecoin is a Payrail currency too (for payments and accounts): `NOT_ENABLED` when registered. */
export const GridOperationsStatus = Schema.Literal("NOT_ENABLED", "PENDING_APPROVAL", "ENABLING", "ENABLED", "DISABLED")
export type GridOperationsStatus = typeof GridOperationsStatus.Type

/** A registered stablecoin as the API shows it. */
export class Stablecoin extends SchemaClass.Class<Stablecoin>("Stablecoin")({
  id: StablecoinId,
  name: Schema.String,
  symbol: Schema.String,
  /** The fiat currency the stablecoin is denominated against (a currency of the registry). */
  baseCurrency: Schema.String,
  network: StablecoinNetwork,
  /** Decimal places of the stablecoin's smallest unit: amounts are integers of `10^-decimals`. */
  decimals: Schema.Int,
  issuanceStatus: IssuanceStatus,
  gridOperationsStatus: GridOperationsStatus,
  networkTokenIdentifier: Schema.String,
  /** The Payrail currency code, once enabled for Payrail operations (absent until then). */
  currency: Schema.optional(Schema.String),
  provider: StablecoinProviderName,
  stablecoinProviderAccountId: StablecoinProviderAccountId,
  providerEnvironment: ProviderEnvironment,
  providerTokenIdentifier: Schema.String,
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc
}) {}

/** `GET /stablecoins` filters. */
export interface StablecoinFilter {
  readonly issuanceStatus?: IssuanceStatus | undefined
  readonly gridOperationsStatus?: GridOperationsStatus | undefined
  readonly provider?: StablecoinProviderName | undefined
}
