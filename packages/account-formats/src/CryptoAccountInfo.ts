import { Schema } from "effect"
import { WalletBeneficiary } from "./Beneficiary.js"
import { Text } from "./FieldFormat.js"
import { optional } from "./internal/fiatShape.js"
import { Bolt11Invoice, Bolt12Offer, LightningAddress } from "./LightningDestination.js"
import { EvmAddress, SolanaAddress, SparkAddress, TronAddress } from "./WalletAddress.js"

/**
 * The crypto `accountInfo` shapes: on-chain wallets (an `address` in the network's format, an optional
 * `beneficiary` for the owner and an optional `vaspName` when an exchange or other VASP holds the wallet) and
 * Lightning destinations (exactly one of a BOLT11 `invoice`, a BOLT12 `bolt12` offer or a `lightningAddress`).
 * A wallet without `vaspName` is self-custody: ownership verification applies to it.
 */

const wallet = <T extends string, A extends Schema.Schema<string, string, never>>(accountType: T, address: A) =>
  Schema.Struct({
    accountType: Schema.Literal(accountType),
    address,
    beneficiary: optional(WalletBeneficiary),
    vaspName: optional(Text(255))
  })

/** `BASE_WALLET`: an EVM address on Base. */
export const BaseWallet = wallet("BASE_WALLET", EvmAddress).annotations({ identifier: "BaseWalletAccountInfo" })

/** `ETHEREUM_WALLET`: an EVM address on Ethereum L1. */
export const EthereumWallet = wallet("ETHEREUM_WALLET", EvmAddress).annotations({
  identifier: "EthereumWalletAccountInfo"
})

/** `POLYGON_WALLET`: an EVM address on Polygon. */
export const PolygonWallet = wallet("POLYGON_WALLET", EvmAddress).annotations({
  identifier: "PolygonWalletAccountInfo"
})

/** `PLASMA_WALLET`: an EVM address on Plasma. */
export const PlasmaWallet = wallet("PLASMA_WALLET", EvmAddress).annotations({ identifier: "PlasmaWalletAccountInfo" })

/** `ARBITRUM_WALLET`: an EVM address on Arbitrum One. */
export const ArbitrumWallet = wallet("ARBITRUM_WALLET", EvmAddress).annotations({
  identifier: "ArbitrumWalletAccountInfo"
})

/** `SOLANA_WALLET`: a Solana address. */
export const SolanaWallet = wallet("SOLANA_WALLET", SolanaAddress).annotations({
  identifier: "SolanaWalletAccountInfo"
})

/** `SPARK_WALLET`: a Spark address. */
export const SparkWallet = wallet("SPARK_WALLET", SparkAddress).annotations({ identifier: "SparkWalletAccountInfo" })

/** `TRON_WALLET`: a Tron address. */
export const TronWallet = wallet("TRON_WALLET", TronAddress).annotations({ identifier: "TronWalletAccountInfo" })

const destinationKeys = ["invoice", "bolt12", "lightningAddress"] as const

const lightning = <T extends string>(accountType: T) =>
  Schema.Struct({
    accountType: Schema.Literal(accountType),
    invoice: optional(Bolt11Invoice),
    bolt12: optional(Bolt12Offer),
    lightningAddress: optional(LightningAddress)
  }).pipe(
    Schema.filter((account) => destinationKeys.filter((key) => account[key] !== undefined).length === 1, {
      description: "a Lightning destination with exactly one of invoice, bolt12 or lightningAddress"
    })
  )

/** `LIGHTNING`: exactly one of a BOLT11 `invoice` (single use), a BOLT12 `bolt12` offer or a `lightningAddress`. */
export const Lightning = lightning("LIGHTNING").annotations({ identifier: "LightningAccountInfo" })

/** `LIGHTNING_ACCOUNT`: the same shape as `LIGHTNING` under the alias the spec lists. */
export const LightningAccount = lightning("LIGHTNING_ACCOUNT").annotations({ identifier: "LightningAliasAccountInfo" })

/** Every on-chain wallet shape. */
export const WalletAccountInfo = Schema.Union(
  BaseWallet,
  EthereumWallet,
  PolygonWallet,
  PlasmaWallet,
  ArbitrumWallet,
  SolanaWallet,
  SparkWallet,
  TronWallet
)
export type WalletAccountInfo = typeof WalletAccountInfo.Type

/** Every crypto `accountInfo` shape: the wallets and the two Lightning types. */
export const CryptoAccountInfo = Schema.Union(...WalletAccountInfo.members, Lightning, LightningAccount)
export type CryptoAccountInfo = typeof CryptoAccountInfo.Type
