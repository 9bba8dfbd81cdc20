const CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
const GENERATOR = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3]

/** Which checksum constant a string uses: BIP-173 bech32 (`1`) or BIP-350 bech32m (`0x2bc830a3`). */
export type Encoding = "bech32" | "bech32m"

const CONSTANTS: Record<Encoding, number> = { bech32: 1, bech32m: 0x2bc830a3 }

/** A decoded bech32 string: its human-readable part (lower case) and its 5-bit data words without the checksum. */
export interface Decoded {
  readonly hrp: string
  readonly words: ReadonlyArray<number>
}

const polymod = (values: ReadonlyArray<number>): number => {
  let checksum = 1
  for (const value of values) {
    const top = checksum >>> 25
    checksum = ((checksum & 0x1ffffff) << 5) ^ value
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) checksum ^= GENERATOR[i]!
  }
  return checksum >>> 0
}

const expandHrp = (hrp: string): Array<number> => {
  const codes = [...hrp].map((char) => char.charCodeAt(0))
  return [...codes.map((code) => code >> 5), 0, ...codes.map((code) => code & 31)]
}

/**
 * Decodes a bech32 or bech32m string with the given checksum, with no overall length limit (BOLT11 invoices exceed
 * BIP-173's 90 characters). `undefined` when the case is mixed, a character is outside the charset, or the
 * checksum does not match.
 */
export const decode = (text: string, encoding: Encoding): Decoded | undefined => {
  if (text !== text.toLowerCase() && text !== text.toUpperCase()) return undefined
  const lower = text.toLowerCase()
  const separator = lower.lastIndexOf("1")
  if (separator < 1 || lower.length - separator - 1 < 6) return undefined
  const hrp = lower.slice(0, separator)
  if ([...hrp].some((char) => char.charCodeAt(0) < 33 || char.charCodeAt(0) > 126)) return undefined
  const words: Array<number> = []
  for (const char of lower.slice(separator + 1)) {
    const word = CHARSET.indexOf(char)
    if (word < 0) return undefined
    words.push(word)
  }
  if (polymod([...expandHrp(hrp), ...words]) !== CONSTANTS[encoding]) return undefined
  return { hrp, words: words.slice(0, -6) }
}

/**
 * The bytes packed in 5-bit words (padding bits at the end must be fewer than 5 and zero, as BIP-173 requires),
 * or `undefined` when they are not.
 */
export const toBytes = (words: ReadonlyArray<number>): Uint8Array | undefined => {
  let accumulator = 0
  let bits = 0
  const bytes: Array<number> = []
  for (const word of words) {
    accumulator = ((accumulator << 5) | word) & 0xfff
    bits += 5
    if (bits >= 8) {
      bits -= 8
      bytes.push((accumulator >> bits) & 0xff)
    }
  }
  if (bits >= 5 || ((accumulator << (8 - bits)) & 0xff) !== 0) return undefined
  return Uint8Array.from(bytes)
}

/** Whether every character of the text is in the bech32 charset (either case, not mixed). */
export const isCharsetOnly = (text: string): boolean =>
  (text === text.toLowerCase() || text === text.toUpperCase()) &&
  [...text.toLowerCase()].every((char) => CHARSET.includes(char))
