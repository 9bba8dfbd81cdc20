import { Schema } from "effect"

/** KYC status of an individual customer. `APPROVED` and `REJECTED` are final. */
export const KycStatus = Schema.Literal("UNVERIFIED", "PENDING", "APPROVED", "REJECTED")
export type KycStatus = typeof KycStatus.Type

/** KYB status of a business customer. `APPROVED` and `REJECTED` are final. */
export const KybStatus = Schema.Literal("UNVERIFIED", "PENDING", "APPROVED", "REJECTED")
export type KybStatus = typeof KybStatus.Type
