import { Schema } from "effect"
import { Currency, Money } from "../kernel/index.js"

/**
 * `POST /crypto/estimate-withdrawal-fee` (the reference's `EstimateCryptoWithdrawalFeeRequest` and its response).
 */

/** The networks a withdrawal may go out on, each with the assets it carries (`assetsOf`). */
export const CryptoNetwork = Schema.Literal(
  "BITCOIN",
  "LIGHTNING",
  "SPARK",
  "ETHEREUM",
  "BASE",
  "POLYGON",
  "ARBITRUM",
  "SOLANA",
  "TRON",
  "PLASMA"
).annotations({ identifier: "CryptoNetwork" })
export type CryptoNetwork = typeof CryptoNetwork.Type

/** The assets each network carries (as the wallet account types do: USDC on Base, Polygon, Arbitrum, Solana...). */
export const assetsOf: { readonly [N in CryptoNetwork]: ReadonlyArray<string> } = {
  BITCOIN: ["BTC"],
  LIGHTNING: ["BTC"],
  SPARK: ["BTC"],
  ETHEREUM: ["USDC", "USDT"],
  BASE: ["USDC"],
  POLYGON: ["USDC"],
  ARBITRUM: ["USDC"],
  SOLANA: ["USDC"],
  TRON: ["USDT"],
  PLASMA: ["USDT"]
}

/** The request: every field required; `amount` in minor units of `currency`. */
export const EstimateWithdrawalFeeRequest = Schema.Struct({
  internalAccountId: Schema.String,
  currency: Currency.CurrencyCode,
  cryptoNetwork: CryptoNetwork,
  amount: Money.PositiveAmountMinor,
  destinationAddress: Schema.String.pipe(
    Schema.minLength(1, { description: "at least 1 character" }),
    Schema.maxLength(2048, { description: "at most 2048 characters" })
  )
}).annotations({ identifier: "EstimateCryptoWithdrawalFeeRequest" })
export type EstimateWithdrawalFeeRequest = typeof EstimateWithdrawalFeeRequest.Type

/**
 * The estimate: `networkFee` in minor units of `networkFeeAsset` (wei, lamports, sats...), informational;
 * `applicationFee` and `totalFee` (the network fee converted to the withdrawal currency, plus the application fee)
 * and `netAmount` (`amount - totalFee`, what the recipient receives) in minor units of the withdrawal currency.
 */
export const WithdrawalFeeEstimate = Schema.Struct({
  networkFee: Schema.Int,
  networkFeeAsset: Schema.String,
  applicationFee: Schema.Int,
  totalFee: Schema.Int,
  netAmount: Schema.Int
}).annotations({ identifier: "EstimateCryptoWithdrawalFeeResponse" })
export type WithdrawalFeeEstimate = typeof WithdrawalFeeEstimate.Type
