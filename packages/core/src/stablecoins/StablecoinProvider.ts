import { Context, type Effect } from "effect"
import type { IssuanceStatus, Stablecoin, StablecoinNetwork } from "./Stablecoin.js"
import type { ProviderAccountInvalid, ProviderUnavailable } from "./StablecoinErrors.js"
import type { OperationType } from "./StablecoinOperation.js"
import type {
  ProviderAccountStatus,
  ProviderEnvironment,
  StablecoinProviderName,
  StoredProviderAccount
} from "./StablecoinProviderAccount.js"

/** Credentials to verify and link. The secret is only passed through: the provider answers a reference to it. */
export interface LinkRequest {
  readonly provider: StablecoinProviderName
  readonly environment: ProviderEnvironment
  readonly apiClientId: string
  readonly apiClientSecret: string
  readonly providerAccountId?: string | undefined
}

/** The provider's verdict on credentials it accepted: the account they open, and the link's status. */
export interface Verified {
  readonly providerAccountId: string
  /** Opaque reference to the stored credentials, kept with the link; never shown. */
  readonly credentialRef: string
  readonly status: ProviderAccountStatus
}

/** A provider-created token to register. */
export interface TokenRequest {
  readonly link: StoredProviderAccount
  readonly providerTokenIdentifier: string
  readonly network: StablecoinNetwork
  readonly networkTokenIdentifier: string
}

/** The provider's metadata of a token. `baseCurrency` is a currency of the registry. */
export interface TokenMetadata {
  readonly name: string
  readonly symbol: string
  readonly baseCurrency: string
  readonly decimals: number
  readonly issuanceStatus: IssuanceStatus
}

/** A mint or a burn to carry out at the provider. `operationId` makes a repeat of the same request harmless. */
export interface TransferRequest {
  readonly link: StoredProviderAccount
  readonly stablecoin: Stablecoin
  readonly operationId: string
  readonly operationType: OperationType
  readonly amount: bigint
  readonly description?: string | undefined
}

/**
 * How the provider took a transfer: settled (`COMPLETED`, `FAILED`), or `PENDING` (a mint awaiting its funds; its
 * settlement job asks `settle` later).
 */
export interface TransferOutcome {
  readonly status: "COMPLETED" | "FAILED" | "PENDING"
  /** The provider's own status, sanitized. */
  readonly providerStatus: string
  /** A stable failure code when `FAILED`. */
  readonly failureReason?: string | undefined
}

/**
 * The stablecoin issuing provider (Brale in the reference). `@payrail/sandbox` implements it deterministically with
 * magic values (docs/stablecoins.md); a real provider plugs in here. Every call is safe to repeat.
 */
export class StablecoinProvider extends Context.Tag("@payrail/core/StablecoinProvider")<
  StablecoinProvider,
  {
    /** Checks credentials; refused ones fail `ProviderAccountInvalid` (nothing to link). */
    readonly verify: (request: LinkRequest) => Effect.Effect<Verified, ProviderAccountInvalid>
    /** The token's metadata and issuance status at the provider. */
    readonly token: (request: TokenRequest) => Effect.Effect<TokenMetadata>
    /** Mints or burns; `ProviderUnavailable` when the provider cannot be reached (nothing happened). */
    readonly transfer: (request: TransferRequest) => Effect.Effect<TransferOutcome, ProviderUnavailable>
    /** How a `PENDING` transfer stands now (still `PENDING`, or settled); `ProviderUnavailable` to retry later. */
    readonly settle: (request: TransferRequest) => Effect.Effect<TransferOutcome, ProviderUnavailable>
  }
>() {}
