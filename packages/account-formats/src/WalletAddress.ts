import { Schema } from "effect"
import { decodeBase58, decodeBase58Check, decodeBech32, keccak256, wordsToBytes } from "./internal/codecs.js"

/**
 * On-chain wallet addresses per network, checked by format and checksum (never by a network lookup). The rules:
 *
 * - EVM (Ethereum, Base, Polygon, Arbitrum, Plasma): `0x` + 40 hex digits. All-lower or all-upper hex carries no
 *   checksum and is accepted; mixed case must be the EIP-55 checksum (keccak-256 of the lower-case hex). The zero
 *   address is refused: funds sent there are burnt.
 * - Solana: base58 (Bitcoin alphabet) decoding to exactly 32 bytes; the all-zero key (system program) is refused.
 *   Whether the key is on the ed25519 curve is not checked (program-derived addresses are valid destinations).
 * - Tron: base58check, 25 bytes decoded, version byte `0x41` (so it starts with `T`), double-SHA-256 checksum.
 * - Spark: lower-case bech32m with a Spark network prefix (`spark`, `sparkt`, `sparkrt`, `sparks`, `sparkl`, or the
 *   legacy `sp`, `spt`, `sprt`, `sps`, `spl`) whose payload starts with the identity-key field: protobuf tag `0x0a`,
 *   length 33, and a compressed secp256k1 key (`0x02`/`0x03` prefix).
 */

const evmPattern = /^0x[0-9a-fA-F]{40}$/

const asciiBytes = (text: string): Uint8Array => Uint8Array.from(text, (char) => char.charCodeAt(0))

/** The EIP-55 mixed-case checksum form of a `0x`-prefixed 40-hex-digit address (any case). */
export const toEip55 = (address: string): string => {
  const hex = address.slice(2).toLowerCase()
  const hash = keccak256(asciiBytes(hex))
  const chars = [...hex].map((char, index) => {
    const nibble = (hash[index >> 1]! >> (index % 2 === 0 ? 4 : 0)) & 0x0f
    return nibble >= 8 ? char.toUpperCase() : char
  })
  return `0x${chars.join("")}`
}

/** Whether the text is an EVM address under the rules above (format, EIP-55 when mixed case, not zero). */
export const isEvmAddress = (address: string): boolean => {
  if (!evmPattern.test(address) || /^0x0{40}$/.test(address)) return false
  const hex = address.slice(2)
  const checksummed = hex !== hex.toLowerCase() && hex !== hex.toUpperCase()
  return !checksummed || toEip55(address) === address
}

/** An EVM account address (Ethereum, Base, Polygon, Arbitrum, Plasma). */
export const EvmAddress = Schema.String.pipe(
  Schema.filter(isEvmAddress, {
    description: "an EVM address: 0x and 40 hex digits, EIP-55 checksummed when mixed case, not the zero address",
    jsonSchema: { format: "evm-address", pattern: "^0x[0-9a-fA-F]{40}$", minLength: 42, maxLength: 42 }
  }),
  Schema.annotations({ identifier: "EvmAddress" })
)

/** Whether the text is a Solana address: base58 of a 32-byte public key that is not all zero. */
export const isSolanaAddress = (address: string): boolean => {
  if (!/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(address)) return false
  const bytes = decodeBase58(address)
  return bytes !== undefined && bytes.length === 32 && bytes.some((byte) => byte !== 0)
}

/** A Solana account address. */
export const SolanaAddress = Schema.String.pipe(
  Schema.filter(isSolanaAddress, {
    description: "a Solana address: base58 of a 32-byte public key",
    jsonSchema: { format: "solana-address", pattern: "^[1-9A-HJ-NP-Za-km-z]{32,44}$", minLength: 32, maxLength: 44 }
  }),
  Schema.annotations({ identifier: "SolanaAddress" })
)

/** Whether the text is a Tron address: base58check of `0x41` + 20 bytes. */
export const isTronAddress = (address: string): boolean => {
  if (!/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(address)) return false
  const payload = decodeBase58Check(address)
  return payload !== undefined && payload.length === 21 && payload[0] === 0x41
}

/** A Tron account address (`T…`, 34 characters). */
export const TronAddress = Schema.String.pipe(
  Schema.filter(isTronAddress, {
    description: "a Tron address: T followed by 33 base58 characters with a valid checksum",
    jsonSchema: { format: "tron-address", pattern: "^T[1-9A-HJ-NP-Za-km-z]{33}$", minLength: 34, maxLength: 34 }
  }),
  Schema.annotations({ identifier: "TronAddress" })
)

/** The human-readable parts of Spark addresses, current and legacy, for every Spark network. */
export const sparkPrefixes: ReadonlyArray<string> = [
  "spark",
  "sparkt",
  "sparkrt",
  "sparks",
  "sparkl",
  "sp",
  "spt",
  "sprt",
  "sps",
  "spl"
]

const sparkPattern = `^(${sparkPrefixes.join("|")})1[02-9ac-hj-np-z]+$`

/** Whether the text is a Spark address under the rules above. */
export const isSparkAddress = (address: string): boolean => {
  if (!new RegExp(sparkPattern).test(address)) return false
  const decoded = decodeBech32(address, "bech32m")
  if (decoded === undefined || !sparkPrefixes.includes(decoded.hrp)) return false
  const payload = wordsToBytes(decoded.words)
  return (
    payload !== undefined &&
    payload.length >= 35 &&
    payload[0] === 0x0a &&
    payload[1] === 0x21 &&
    (payload[2] === 0x02 || payload[2] === 0x03)
  )
}

/** A Spark wallet address (`spark1…`). */
export const SparkAddress = Schema.String.pipe(
  Schema.filter(isSparkAddress, {
    description: "a Spark address: bech32m with a Spark network prefix encoding an identity public key",
    jsonSchema: { format: "spark-address", pattern: sparkPattern }
  }),
  Schema.annotations({ identifier: "SparkAddress" })
)
