import { Schema } from "effect"
import { charsToWords, decodeBech32, wordsToBytes } from "./internal/codecs.js"

/**
 * Lightning payment destinations, checked offline by structure and checksum:
 *
 * - BOLT11 invoice: bech32 (either case, not mixed, no length limit) whose prefix is `ln` + a network (`bc` mainnet,
 *   `tb` testnet, `tbs` signet, `bcrt` regtest) + an optional amount (`[1-9][0-9]*` with an optional `m`/`u`/`n`/`p`
 *   multiplier; with `p` the amount must end in 0). The data holds a 35-bit timestamp, tagged fields that exactly fill
 *   the space before the 65-byte signature, and a 52-character payment hash (`p`). The signature and expiry are not
 *   checked here (no secp256k1, no clock).
 * - BOLT12 offer: `lno1` + bech32 characters without checksum (either case, not mixed, no `+` continuations), whose
 *   bytes form a TLV stream of minimally encoded, strictly increasing record types.
 * - Lightning address (LUD-16): `user@domain`, user of letters, digits and `._+-` (at most 64), a DNS domain with
 *   an alphabetic top-level label.
 */

const bolt11Prefix = /^ln(bc|tb|tbs|bcrt)([1-9][0-9]*[munp]?)?$/
const signatureWords = 104
const timestampWords = 7

// Tagged fields are `type (5 bits) | length (10 bits) | data`, packed between the timestamp and the signature.
const hasWellFormedFields = (words: ReadonlyArray<number>): boolean => {
  const end = words.length - signatureWords
  let position = timestampWords
  let paymentHash = false
  while (position < end) {
    if (position + 3 > end) return false
    const type = words[position]!
    const length = words[position + 1]! * 32 + words[position + 2]!
    if (type === 1 && length === 52) paymentHash = true
    position += 3 + length
  }
  return position === end && paymentHash
}

/** Whether the text is a BOLT11 invoice under the rules above. */
export const isBolt11Invoice = (invoice: string): boolean => {
  const decoded = decodeBech32(invoice, "bech32")
  if (decoded === undefined) return false
  const prefix = bolt11Prefix.exec(decoded.hrp)
  if (prefix === null) return false
  const amount = prefix[2]
  if (amount !== undefined && amount.endsWith("p") && !amount.endsWith("0p")) return false
  return decoded.words.length >= timestampWords + signatureWords && hasWellFormedFields(decoded.words)
}

/** A BOLT11 Lightning invoice (single use). */
export const Bolt11Invoice = Schema.String.pipe(
  Schema.filter(isBolt11Invoice, {
    description: "a BOLT11 invoice (lnbc, lntb, lntbs or lnbcrt) with a valid bech32 checksum",
    jsonSchema: { format: "bolt11", pattern: "^(ln|LN)[a-zA-Z0-9]+1[02-9ac-hj-np-zAC-HJ-NP-Z]+$" }
  }),
  Schema.annotations({ identifier: "Bolt11Invoice" })
)

// BigSize (BOLT1): one byte below 0xfd, else 2, 4 or 8 big-endian bytes, each minimally encoded.
const readBigSize = (bytes: Uint8Array, at: number): readonly [value: number, next: number] | undefined => {
  const first = bytes[at]
  if (first === undefined) return undefined
  if (first < 0xfd) return [first, at + 1]
  const width = first === 0xfd ? 2 : first === 0xfe ? 4 : 8
  if (at + 1 + width > bytes.length) return undefined
  let value = 0
  for (let i = 1; i <= width; i++) value = value * 256 + bytes[at + i]!
  const minimum = width === 2 ? 0xfd : width === 4 ? 0x10000 : 0x100000000
  return value < minimum ? undefined : [value, at + 1 + width]
}

const isTlvStream = (bytes: Uint8Array): boolean => {
  let position = 0
  let previousType = -1
  while (position < bytes.length) {
    const type = readBigSize(bytes, position)
    if (type === undefined || type[0] <= previousType) return false
    const length = readBigSize(bytes, type[1])
    if (length === undefined || length[1] + length[0] > bytes.length) return false
    previousType = type[0]
    position = length[1] + length[0]
  }
  return bytes.length > 0
}

/** Whether the text is a BOLT12 offer under the rules above. */
export const isBolt12Offer = (offer: string): boolean => {
  if (!/^(lno|LNO)1[0-9a-zA-Z]+$/.test(offer)) return false
  if (offer.slice(0, 3) === "lno" ? offer !== offer.toLowerCase() : offer !== offer.toUpperCase()) return false
  const words = charsToWords(offer.slice(4))
  const bytes = words === undefined ? undefined : wordsToBytes(words)
  return bytes !== undefined && isTlvStream(bytes)
}

/** A BOLT12 offer (reusable). */
export const Bolt12Offer = Schema.String.pipe(
  Schema.filter(isBolt12Offer, {
    description: "a BOLT12 offer: lno1 followed by a bech32-encoded TLV stream",
    jsonSchema: { format: "bolt12-offer", pattern: "^(lno|LNO)1[02-9ac-hj-np-zAC-HJ-NP-Z]+$" }
  }),
  Schema.annotations({ identifier: "Bolt12Offer" })
)

const lightningAddressPattern =
  "^[A-Za-z0-9._+-]{1,64}@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z]{2,63}$"

/** A Lightning address (`user@domain`, LUD-16), at most 320 characters. */
export const LightningAddress = Schema.String.pipe(
  Schema.filter((address) => address.length <= 320 && new RegExp(lightningAddressPattern).test(address), {
    description: "a Lightning address of the form user@domain",
    jsonSchema: { format: "lightning-address", pattern: lightningAddressPattern, maxLength: 320 }
  }),
  Schema.annotations({ identifier: "LightningAddress" })
)

/** The user part of a Lightning address (before the `@`), which the sandbox reads outcomes from. */
export const usernameOf = (address: string): string => {
  const at = address.lastIndexOf("@")
  return at < 0 ? address : address.slice(0, at)
}
