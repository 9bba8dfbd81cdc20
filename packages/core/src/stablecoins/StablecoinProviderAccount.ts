import { Schema } from "effect"
import { ResourceId, SchemaClass } from "../kernel/index.js"

/**
 * A link between the platform and its account at a stablecoin provider (docs/stablecoins.md): the credentials the
 * platform gave are verified by the provider and kept by reference only (`credentialRef`); no response, log or
 * event carries them.
 */

export const StablecoinProviderAccountId = ResourceId.make("StablecoinProviderAccount")
export type StablecoinProviderAccountId = typeof StablecoinProviderAccountId.Type

/** The provider backing a link, a stablecoin or an operation (the reference's one value). */
export const StablecoinProviderName = Schema.Literal("BRALE")
export type StablecoinProviderName = typeof StablecoinProviderName.Type

/** The provider's environment: the platform's own (`SANDBOX` platforms link sandbox accounts). */
export const ProviderEnvironment = Schema.Literal("SANDBOX", "PRODUCTION")
export type ProviderEnvironment = typeof ProviderEnvironment.Type

/** Whether the link's credentials work: only an `ACTIVE` link registers stablecoins and moves them. */
export const ProviderAccountStatus = Schema.Literal("ACTIVE", "INVALID", "REVOKED")
export type ProviderAccountStatus = typeof ProviderAccountStatus.Type

/** A provider account link as the API shows it. */
export class StablecoinProviderAccount extends SchemaClass.Class<StablecoinProviderAccount>(
  "StablecoinProviderAccount"
)({
  id: StablecoinProviderAccountId,
  provider: StablecoinProviderName,
  providerAccountId: Schema.String,
  providerEnvironment: ProviderEnvironment,
  status: ProviderAccountStatus,
  /** When the provider last accepted the credentials; absent when it never did. */
  lastVerifiedAt: Schema.optional(Schema.DateTimeUtc),
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc
}) {}

/**
 * A link with what only storage and the provider see: the platform, and the provider's reference to the stored
 * credentials (`credentialRef`, opaque; the sandbox keeps a digest, never the secret).
 */
export interface StoredProviderAccount {
  readonly platformId: string
  readonly account: StablecoinProviderAccount
  readonly credentialRef: string
}

/** `GET /stablecoin-provider-accounts` filters. */
export interface ProviderAccountFilter {
  readonly provider?: StablecoinProviderName | undefined
  readonly status?: ProviderAccountStatus | undefined
}
