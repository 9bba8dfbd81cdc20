import { Schema } from "effect"
import { ResourceId, SchemaClass } from "../kernel/index.js"
import { StablecoinId } from "./Stablecoin.js"
import {
  ProviderEnvironment,
  StablecoinProviderAccountId,
  StablecoinProviderName
} from "./StablecoinProviderAccount.js"

/**
 * A mint or a burn of a registered stablecoin (docs/stablecoins.md). `amount` is a decimal string in the
 * stablecoin's smallest unit. A `COMPLETED` operation has moved the stablecoin's issued supply in the ledger; a
 * `FAILED` one moved nothing.
 */

export const StablecoinOperationId = ResourceId.make("StablecoinOperation")
export type StablecoinOperationId = typeof StablecoinOperationId.Type

export const OperationType = Schema.Literal("MINT", "BURN")
export type OperationType = typeof OperationType.Type

/** The operation's life: `CREATED` → `PENDING`/`PROCESSING` → `COMPLETED`, `FAILED` or `EXPIRED` (terminal). */
export const OperationStatus = Schema.Literal("CREATED", "PENDING", "PROCESSING", "COMPLETED", "FAILED", "EXPIRED")
export type OperationStatus = typeof OperationStatus.Type

/** Whether an operation in `status` changes no more. */
export const isTerminal = (status: OperationStatus): boolean =>
  status === "COMPLETED" || status === "FAILED" || status === "EXPIRED"

/** The amount in the stablecoin's smallest unit: decimal digits, no sign, no leading zero. */
export const Amount = Schema.String.pipe(
  Schema.pattern(/^(0|[1-9][0-9]{0,29})$/, { description: "an integer in the stablecoin's smallest unit" })
)

/** Where a mint's fiat comes from. `ACH_DEBIT` and `SAME_DAY_ACH_DEBIT` name the external account debited. */
export const MintFundingSource = Schema.Struct({
  type: Schema.Literal("WIRE", "ACH_DEBIT", "SAME_DAY_ACH_DEBIT", "GRID_INTERNAL_ACCOUNT", "PROVIDER_INTERNAL_BALANCE"),
  externalAccountId: Schema.optional(Schema.String),
  accountId: Schema.optional(Schema.String),
  sourceTokenIdentifier: Schema.optional(Schema.String),
  cryptoNetwork: Schema.optional(Schema.String)
}).annotations({ identifier: "StablecoinMintFundingSource" })
export type MintFundingSource = typeof MintFundingSource.Type

/** Where minted coins go: an external (wallet) account. */
export const MintDestination = Schema.Struct({
  type: Schema.Literal("EXTERNAL_ACCOUNT", "GRID_INTERNAL_ACCOUNT"),
  externalAccountId: Schema.optional(Schema.String),
  accountId: Schema.optional(Schema.String)
}).annotations({ identifier: "StablecoinMintDestination" })
export type MintDestination = typeof MintDestination.Type

/** Where burned coins come from: an external wallet account or the balance already at the provider. */
export const BurnSource = Schema.Struct({
  type: Schema.Literal("EXTERNAL_ACCOUNT", "GRID_INTERNAL_ACCOUNT", "PROVIDER_INTERNAL_BALANCE"),
  externalAccountId: Schema.optional(Schema.String),
  accountId: Schema.optional(Schema.String)
}).annotations({ identifier: "StablecoinBurnSource" })
export type BurnSource = typeof BurnSource.Type

/** The fiat payout rail of a burn. */
export const PayoutRail = Schema.Literal("WIRE", "ACH_CREDIT", "SAME_DAY_ACH_CREDIT", "RTP_CREDIT")
export type PayoutRail = typeof PayoutRail.Type

/** Where a burn's fiat proceeds go: a bank external account, on a rail. */
export const BurnDestination = Schema.Struct({
  type: Schema.Literal("EXTERNAL_ACCOUNT"),
  externalAccountId: Schema.String,
  rail: PayoutRail
}).annotations({ identifier: "StablecoinBurnDestination" })
export type BurnDestination = typeof BurnDestination.Type

/** An operation's destination: a mint's or a burn's. */
export const OperationDestination = Schema.Struct({
  type: Schema.Literal("EXTERNAL_ACCOUNT", "GRID_INTERNAL_ACCOUNT"),
  externalAccountId: Schema.optional(Schema.String),
  accountId: Schema.optional(Schema.String),
  rail: Schema.optional(PayoutRail)
}).annotations({ identifier: "StablecoinOperationDestination" })
export type OperationDestination = typeof OperationDestination.Type

/** A stablecoin operation as the API shows it. */
export class StablecoinOperation extends SchemaClass.Class<StablecoinOperation>("StablecoinOperation")({
  id: StablecoinOperationId,
  stablecoinId: StablecoinId,
  operationType: OperationType,
  status: OperationStatus,
  amount: Amount,
  provider: StablecoinProviderName,
  providerEnvironment: ProviderEnvironment,
  stablecoinProviderAccountId: StablecoinProviderAccountId,
  fundingSource: Schema.optional(MintFundingSource),
  source: Schema.optional(BurnSource),
  destination: Schema.optional(OperationDestination),
  providerStatus: Schema.optional(Schema.String),
  failureReason: Schema.optional(Schema.String),
  description: Schema.optional(Schema.String),
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc
}) {}

/** An operation with its platform, as stored. */
export interface StoredOperation {
  readonly platformId: string
  readonly operation: StablecoinOperation
}
