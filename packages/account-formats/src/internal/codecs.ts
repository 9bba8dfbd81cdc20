import { keccak_256 } from "@noble/hashes/sha3.js"
import { sha256 } from "@noble/hashes/sha2.js"
import { base58, bech32, bech32m, createBase58check } from "@scure/base"

/**
 * Total (never throwing) views of the audited codecs of `@scure/base` and `@noble/hashes`, in the shape the
 * validators need: `undefined` for text that does not decode.
 */

/** A decoded bech32 string: its human-readable part (lower case) and its 5-bit data words without the checksum. */
export interface Bech32Decoded {
  readonly hrp: string
  readonly words: ReadonlyArray<number>
}

/**
 * Decodes bech32 (BIP-173) or bech32m (BIP-350) with no length limit (BOLT11 invoices exceed 90 characters);
 * `undefined` for mixed case, characters outside the charset or a wrong checksum.
 */
export const decodeBech32 = (text: string, encoding: "bech32" | "bech32m"): Bech32Decoded | undefined => {
  const decoded = (encoding === "bech32" ? bech32 : bech32m).decodeUnsafe(text, false)
  return decoded ? { hrp: decoded.prefix, words: decoded.words } : undefined
}

/** The bytes packed in 5-bit words (padding shorter than 5 bits and zero, as BIP-173 requires), or `undefined`. */
export const wordsToBytes = (words: ReadonlyArray<number>): Uint8Array | undefined =>
  bech32.fromWordsUnsafe([...words]) ?? undefined

const bech32Charset = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"

/** The 5-bit words of bech32 characters without a checksum (either case, not mixed), or `undefined`. */
export const charsToWords = (text: string): ReadonlyArray<number> | undefined => {
  if (text !== text.toLowerCase() && text !== text.toUpperCase()) return undefined
  const words = [...text.toLowerCase()].map((char) => bech32Charset.indexOf(char))
  return words.every((word) => word >= 0) ? words : undefined
}

const attempt = <A>(decode: () => A): A | undefined => {
  try {
    return decode()
  } catch {
    return undefined
  }
}

/** The bytes of a Bitcoin-alphabet base58 string, or `undefined` when it is empty or not base58. */
export const decodeBase58 = (text: string): Uint8Array | undefined =>
  text.length === 0 ? undefined : attempt(() => base58.decode(text))

const base58check = createBase58check(sha256)

/** The payload of a base58check string (double SHA-256 checksum), or `undefined` when it does not verify. */
export const decodeBase58Check = (text: string): Uint8Array | undefined => attempt(() => base58check.decode(text))

/** Keccak-256 (the Ethereum hash, not SHA3-256) of the bytes. */
export const keccak256 = (bytes: Uint8Array): Uint8Array => keccak_256(bytes)
