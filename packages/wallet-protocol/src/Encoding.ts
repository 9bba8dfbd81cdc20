import { equalBytes as equalBytesOf } from "@noble/curves/utils.js"
import { bytesToHex, concatBytes, hexToBytes } from "@noble/hashes/utils.js"
import { base64url, base64urlnopad, utf8 } from "@scure/base"
import { err, ok, type Result } from "./Result.js"

/** Encodes bytes as lowercase hexadecimal, two digits per byte. */
export const toHex = (bytes: Uint8Array): string => bytesToHex(bytes)

/**
 * Decodes hexadecimal text, upper, lower or mixed case, into bytes; the empty text is zero bytes. Fails with `BadHex`
 * on an odd length or any other character; `field` names the input in the error.
 */
export const fromHex = (text: string, field?: string): Result<Uint8Array> => {
  if (text.length % 2 !== 0) return err("BadHex", "odd number of hex digits", field)
  try {
    return ok(hexToBytes(text))
  } catch {
    return err("BadHex", "a character is not a hex digit", field)
  }
}

/** Encodes bytes as base64url (RFC 4648 §5, `-_` alphabet) without `=` padding. */
export const toBase64url = (bytes: Uint8Array): string => base64urlnopad.encode(bytes)

/**
 * Decodes base64url text into bytes. Padding is optional (a padded input must be correctly padded); the standard
 * alphabet's `+` and `/`, whitespace and any other character are rejected; unused trailing bits must be zero, so
 * every byte string has exactly one accepted unpadded encoding. Fails with `BadBase64url` otherwise.
 */
export const fromBase64url = (text: string, field?: string): Result<Uint8Array> => {
  try {
    // Unpadded is what every client sends (spec §1, §7.7); a trailing `=` selects the codec that requires correct
    // padding, so `YQ==` is accepted and `YQ=` is not, whichever runtime path (native or JavaScript) the codec takes.
    return ok(text.endsWith("=") ? base64url.decode(text) : base64urlnopad.decode(text))
  } catch {
    return err(
      "BadBase64url",
      "not base64url: characters outside `A-Za-z0-9-_`, an impossible length, wrong padding or non-zero trailing bits",
      field
    )
  }
}

const textEncoder = new TextEncoder()

/**
 * Encodes text as UTF-8 bytes, exactly as `TextEncoder` does (a lone surrogate becomes U+FFFD, as in every client
 * that hashes a payload). `TextEncoder` exists in every target: browsers, Node 20+ and Hermes since React Native 0.74.
 */
export const toUtf8 = (text: string): Uint8Array => textEncoder.encode(text)

/**
 * Decodes UTF-8 bytes into text, failing with `BadUtf8` on malformed input (overlong forms, surrogates, code points
 * above U+10FFFF, truncated sequences), never substituting U+FFFD; a leading byte order mark is kept as U+FEFF. Uses a
 * fatal `TextDecoder` where the engine has one and `@scure/base`'s strict decoder where it has not (Hermes has had
 * `TextEncoder` since React Native 0.74 but gained `TextDecoder` only in late 2025).
 */
export const fromUtf8 = (bytes: Uint8Array, field?: string): Result<string> => {
  try {
    return ok(utf8.encode(bytes))
  } catch {
    return err("BadUtf8", "malformed UTF-8", field)
  }
}

/** Concatenates byte arrays into a new array. */
export const concat = (...parts: ReadonlyArray<Uint8Array>): Uint8Array => concatBytes(...parts)

/** True when both arrays hold the same bytes. Compares every byte of equal-length arrays (no early exit). */
export const equalBytes = (a: Uint8Array, b: Uint8Array): boolean => equalBytesOf(a, b)
