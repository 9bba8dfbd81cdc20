import { Schema } from "effect"
import { StablecoinNetwork } from "./Stablecoin.js"
import { BurnDestination, BurnSource, MintDestination, MintFundingSource } from "./StablecoinOperation.js"
import { StablecoinProviderAccountId, StablecoinProviderName } from "./StablecoinProviderAccount.js"

/** The request bodies of stablecoin issuance (the reference's fields; unknown fields are ignored). */

const Text = (maxLength: number) => Schema.String.pipe(Schema.minLength(1), Schema.maxLength(maxLength))

/** `POST /stablecoin-provider-accounts`. `providerAccountId` may be left out when the credentials open one account. */
export const LinkProviderAccountRequest = Schema.Struct({
  provider: StablecoinProviderName,
  apiClientId: Text(255),
  apiClientSecret: Text(1024),
  providerAccountId: Schema.optional(Text(255))
}).annotations({ identifier: "StablecoinProviderAccountLinkRequest" })
export type LinkProviderAccountRequest = typeof LinkProviderAccountRequest.Type

/**
 * `POST /stablecoins`. `stablecoinProviderAccountId` may be left out when exactly one link is `ACTIVE`; with
 * several it is required.
 */
export const RegisterStablecoinRequest = Schema.Struct({
  providerTokenIdentifier: Text(255),
  networkTokenIdentifier: Text(255),
  network: StablecoinNetwork,
  stablecoinProviderAccountId: Schema.optional(StablecoinProviderAccountId)
}).annotations({ identifier: "StablecoinRegisterRequest" })
export type RegisterStablecoinRequest = typeof RegisterStablecoinRequest.Type

/** An amount in the stablecoin's smallest unit, as the request gives it: decimal digits. */
export const RequestedAmount = Schema.String.pipe(
  Schema.pattern(/^[0-9]{1,30}$/, { description: "an integer in the stablecoin's smallest unit, as a string" })
)

const Description = Schema.String.pipe(Schema.maxLength(1024))

/** `POST /stablecoins/{stablecoinId}/mints`. */
export const MintRequest = Schema.Struct({
  amount: RequestedAmount,
  fundingSource: MintFundingSource,
  destination: MintDestination,
  description: Schema.optional(Description)
}).annotations({ identifier: "StablecoinMintRequest" })
export type MintRequest = typeof MintRequest.Type

/** `POST /stablecoins/{stablecoinId}/burns`. */
export const BurnRequest = Schema.Struct({
  amount: RequestedAmount,
  source: BurnSource,
  destination: BurnDestination,
  description: Schema.optional(Description)
}).annotations({ identifier: "StablecoinBurnRequest" })
export type BurnRequest = typeof BurnRequest.Type
