import { Effect, Layer } from "effect"
import { WithdrawalFeeProvider, type WithdrawalFeeRequest } from "@payrail/core"

/**
 * A network's sandbox fee: `networkFee` in minor units of its native asset, and its worth in US cents (a stablecoin
 * of 6 decimals is worth `cents * 10^4` of its minor units) or, on Bitcoin networks, in sats.
 */
interface Tariff {
  readonly asset: string
  readonly networkFee: number
  readonly usdCents: number
  readonly sats: number
}

/**
 * The fixed sandbox fee of each network, of the order of a quiet day's: Ethereum mainnet the dearest, Plasma and Spark
 * free, Lightning a routing fee, Bitcoin an on-chain fee. Deterministic, so tests and demos can rely on them.
 */
export const tariffs: { readonly [N in WithdrawalFeeRequest.CryptoNetwork]: Tariff } = {
  ETHEREUM: { asset: "ETH", networkFee: 300_000_000_000_000, usdCents: 100, sats: 0 },
  BASE: { asset: "ETH", networkFee: 2_000_000_000_000, usdCents: 1, sats: 0 },
  ARBITRUM: { asset: "ETH", networkFee: 5_000_000_000_000, usdCents: 2, sats: 0 },
  POLYGON: { asset: "POL", networkFee: 5_000_000_000_000_000, usdCents: 1, sats: 0 },
  SOLANA: { asset: "SOL", networkFee: 5_000, usdCents: 1, sats: 0 },
  TRON: { asset: "TRX", networkFee: 1_000_000, usdCents: 25, sats: 0 },
  PLASMA: { asset: "XPL", networkFee: 0, usdCents: 0, sats: 0 },
  SPARK: { asset: "BTC", networkFee: 0, usdCents: 0, sats: 0 },
  LIGHTNING: { asset: "BTC", networkFee: 10, usdCents: 0, sats: 10 },
  BITCOIN: { asset: "BTC", networkFee: 1_500, usdCents: 0, sats: 1_500 }
}

/** The sandbox's `WithdrawalFeeProvider`: the tariff of the network, converted to the withdrawn currency. */
export const layer: Layer.Layer<WithdrawalFeeProvider.WithdrawalFeeProvider> = Layer.succeed(
  WithdrawalFeeProvider.WithdrawalFeeProvider,
  {
    networkFee: ({ currency, network }) =>
      Effect.sync(() => {
        const tariff = tariffs[network]
        return {
          networkFee: tariff.networkFee,
          asset: tariff.asset,
          inWithdrawalCurrency: currency === "BTC" ? tariff.sats : tariff.usdCents * 10_000
        }
      })
  }
)
