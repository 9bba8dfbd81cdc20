import { decodeUtf8, encodeUtf8 } from "./internal/utf8.js"
import { err, ok, type Result } from "./Result.js"

const HEX_DIGITS = "0123456789abcdef"
const BYTE_TO_HEX: ReadonlyArray<string> = Array.from(
  { length: 256 },
  (_, b) => HEX_DIGITS.charAt(b >> 4) + HEX_DIGITS.charAt(b & 15)
)
const HEX_VALUE = new Int8Array(128).fill(-1)
for (let i = 0; i < 16; i++) {
  HEX_VALUE[HEX_DIGITS.charCodeAt(i)] = i
  HEX_VALUE[HEX_DIGITS.toUpperCase().charCodeAt(i)] = i
}

const B64URL_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
const B64URL_VALUE = new Int8Array(128).fill(-1)
for (let i = 0; i < 64; i++) B64URL_VALUE[B64URL_ALPHABET.charCodeAt(i)] = i

/** Encodes bytes as lowercase hexadecimal, two digits per byte. */
export const toHex = (bytes: Uint8Array): string => {
  let out = ""
  for (let i = 0; i < bytes.length; i++) out += BYTE_TO_HEX[bytes[i] as number]
  return out
}

const hexDigit = (text: string, at: number): number => {
  const code = text.charCodeAt(at)
  return code < 128 ? (HEX_VALUE[code] as number) : -1
}

/**
 * Decodes hexadecimal text, upper or lower case, into bytes. Fails with `BadHex` on an odd length or any other
 * character; `field` names the input in the error.
 */
export const fromHex = (text: string, field?: string): Result<Uint8Array> => {
  if (text.length % 2 !== 0) return err("BadHex", "odd number of hex digits", field)
  const out = new Uint8Array(text.length / 2)
  for (let i = 0; i < out.length; i++) {
    const hi = hexDigit(text, 2 * i)
    const lo = hexDigit(text, 2 * i + 1)
    if (hi < 0 || lo < 0) return err("BadHex", `not a hex digit at position ${hi < 0 ? 2 * i : 2 * i + 1}`, field)
    out[i] = (hi << 4) | lo
  }
  return ok(out)
}

const b64Char = (sextet: number): string => B64URL_ALPHABET.charAt(sextet & 63)

/** Encodes bytes as base64url (RFC 4648 §5, `-_` alphabet) without `=` padding. */
export const toBase64url = (bytes: Uint8Array): string => {
  let out = ""
  let i = 0
  for (; i + 2 < bytes.length; i += 3) {
    const n = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8) | (bytes[i + 2] as number)
    out += b64Char(n >> 18) + b64Char(n >> 12) + b64Char(n >> 6) + b64Char(n)
  }
  const rest = bytes.length - i
  if (rest > 0) {
    const n = ((bytes[i] as number) << 16) | (rest === 2 ? (bytes[i + 1] as number) << 8 : 0)
    out += b64Char(n >> 18) + b64Char(n >> 12) + (rest === 2 ? b64Char(n >> 6) : "")
  }
  return out
}

const b64Digit = (text: string, at: number): number => {
  const code = text.charCodeAt(at)
  return code < 128 ? (B64URL_VALUE[code] as number) : -1
}

/**
 * Decodes base64url text into bytes. Padding is optional (a padded input must be correctly padded); the standard
 * alphabet's `+` and `/` are rejected; unused trailing bits must be zero, so every byte string has exactly one
 * accepted unpadded encoding. Fails with `BadBase64url` otherwise.
 */
export const fromBase64url = (text: string, field?: string): Result<Uint8Array> => {
  let end = text.length
  if (end % 4 === 0 && end > 0 && text.charCodeAt(end - 1) === 61) {
    end--
    if (text.charCodeAt(end - 1) === 61) end--
  }
  const rest = end % 4
  if (rest === 1) return err("BadBase64url", "impossible length", field)
  const out = new Uint8Array(Math.floor(end / 4) * 3 + (rest === 0 ? 0 : rest - 1))
  let o = 0
  let i = 0
  for (; i + 4 <= end; i += 4) {
    const a = b64Digit(text, i), b = b64Digit(text, i + 1), c = b64Digit(text, i + 2), d = b64Digit(text, i + 3)
    if ((a | b | c | d) < 0) return err("BadBase64url", "character outside the base64url alphabet", field)
    const n = (a << 18) | (b << 12) | (c << 6) | d
    out[o++] = n >> 16
    out[o++] = (n >> 8) & 255
    out[o++] = n & 255
  }
  if (rest > 0) {
    const a = b64Digit(text, i), b = b64Digit(text, i + 1), c = rest === 3 ? b64Digit(text, i + 2) : 0
    if ((a | b | c) < 0) return err("BadBase64url", "character outside the base64url alphabet", field)
    const n = (a << 18) | (b << 12) | (c << 6)
    const unusedBits = rest === 2 ? n & 0xffff : n & 0xff
    if (unusedBits !== 0) return err("BadBase64url", "non-zero trailing bits", field)
    out[o++] = n >> 16
    if (rest === 3) out[o++] = (n >> 8) & 255
  }
  return ok(out)
}

/** Encodes text as UTF-8 bytes, exactly as `TextEncoder` does. */
export const toUtf8 = (text: string): Uint8Array => encodeUtf8(text)

/** Decodes UTF-8 bytes into text, failing with `BadUtf8` on malformed input (never substituting U+FFFD). */
export const fromUtf8 = (bytes: Uint8Array, field?: string): Result<string> => {
  const text = decodeUtf8(bytes)
  return text === undefined ? err("BadUtf8", "malformed UTF-8", field) : ok(text)
}

/** Concatenates byte arrays into a new array. */
export const concat = (...parts: ReadonlyArray<Uint8Array>): Uint8Array => {
  let length = 0
  for (const part of parts) length += part.length
  const out = new Uint8Array(length)
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}

/** True when both arrays hold the same bytes. Not constant-time: compare public data only. */
export const equalBytes = (a: Uint8Array, b: Uint8Array): boolean => {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}
