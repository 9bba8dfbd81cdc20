import { type DateTime, Duration, Schema } from "effect"
import { Customer } from "../customers/index.js"
import { PlatformConfig } from "../platforms/index.js"
import type { Platform } from "../platforms/index.js"
import { SchemaClass } from "../kernel/index.js"

/** How long a hosted verification link stays usable after it is created: 24 hours of the platform's clock. */
export const lifetime: Duration.Duration = Duration.hours(24)

/** Who serves the hosted verification page. The reference server serves its own page, so always `PAYRAIL`. */
export const Provider = Schema.Literal("PAYRAIL")
export type Provider = typeof Provider.Type

/** Where the hosted page is served, below the server's public base URL and outside the versioned API. */
export const pagePath = "/verify"

/**
 * Body of `POST /customers/{customerId}/kyc-link`. `redirectUri`, when given, must be an absolute `http:` or
 * `https:` URL: the page sends the person there (303) once they submit.
 */
export const CreateKycLinkRequest = Schema.Struct({
  redirectUri: Schema.optionalWith(PlatformConfig.HttpUrl, { exact: true })
}).annotations({
  identifier: "CreateKycLinkRequest",
  parseOptions: { errors: "all", onExcessProperty: "error" }
})
export type CreateKycLinkRequest = typeof CreateKycLinkRequest.Type

/**
 * The answer of `POST /customers/{customerId}/kyc-link` (the reference's `KycLinkResponse`): the absolute URL of
 * the hosted page (single-use: spent when the person submits), when it stops working, and who serves it.
 */
export class KycLinkResponse extends SchemaClass.Class<KycLinkResponse>("KycLinkResponse")({
  kycUrl: Schema.String,
  expiresAt: Schema.DateTimeUtc,
  provider: Provider
}) {}

/**
 * A stored link. Only the SHA-256 of its secret is kept: the secret itself exists in clear only in the `kycUrl`
 * handed to the platform.
 */
export interface StoredKycLink {
  /** SHA-256 of the secret, lowercase hex. */
  readonly secretHash: string
  readonly platformId: Platform.PlatformId
  readonly customerId: Customer.CustomerId
  readonly redirectUri: string | undefined
  readonly createdAt: DateTime.Utc
  readonly expiresAt: DateTime.Utc
  /** When the person submitted through it; a spent link never works again. */
  readonly spentAt: DateTime.Utc | undefined
}
