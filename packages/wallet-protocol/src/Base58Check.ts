import { sha256 } from "@noble/hashes/sha2.js"
import { base58, createBase58check } from "@scure/base"
import { err, ok, type Result } from "./Result.js"

/**
 * The longest text {@link decodeBase58} and {@link decode} accept. Base58 conversion is quadratic, so `@scure/base`
 * bounds its input; a credential bundle is 115 characters.
 */
export const MAX_TEXT_LENGTH = 4096
/** The most bytes {@link encodeBase58} encodes; {@link encode} takes four fewer, room for the checksum. */
export const MAX_BYTES = 2048

const base58check = createBase58check(sha256)

/**
 * Encodes bytes in the Bitcoin base58 alphabet; each leading zero byte becomes a leading `1`, and no bytes become the
 * empty text. Throws a `RangeError` beyond {@link MAX_BYTES} bytes, a programming error.
 */
export const encodeBase58 = (bytes: Uint8Array): string => {
  if (bytes.length > MAX_BYTES) throw new RangeError(`base58 encodes at most ${MAX_BYTES} bytes`)
  return base58.encode(bytes)
}

const tooLong = (field: string | undefined) => err("BadBase58", `longer than ${MAX_TEXT_LENGTH} characters`, field)

/**
 * Decodes Bitcoin-alphabet base58 text (each leading `1` a zero byte, the empty text no bytes); fails with `BadBase58`
 * on any character outside the alphabet or a text longer than {@link MAX_TEXT_LENGTH}.
 */
export const decodeBase58 = (text: string, field?: string): Result<Uint8Array> => {
  if (text.length > MAX_TEXT_LENGTH) return tooLong(field)
  try {
    return ok(base58.decode(text))
  } catch {
    return err("BadBase58", "a character is outside the base58 alphabet", field)
  }
}

/**
 * Encodes `payload` as base58check: base58 of `payload ‖ SHA-256(SHA-256(payload))[0..4]`, with no version byte
 * (the layout of Turnkey's `bs58check`). Throws a `RangeError` beyond {@link MAX_BYTES} − 4 bytes, a programming
 * error.
 */
export const encode = (payload: Uint8Array): string => {
  if (payload.length > MAX_BYTES - 4) throw new RangeError(`base58check encodes at most ${MAX_BYTES - 4} bytes`)
  return base58check.encode(payload)
}

/**
 * Decodes base58check text and returns the payload without its checksum. Fails with `BadBase58` on a foreign
 * character or a text longer than {@link MAX_TEXT_LENGTH}, and with `BadChecksum` when the text is too short to hold
 * a checksum or the checksum does not match.
 */
export const decode = (text: string, field?: string): Result<Uint8Array> => {
  if (text.length > MAX_TEXT_LENGTH) return tooLong(field)
  try {
    return ok(base58check.decode(text))
  } catch {
    // The codec throws for both defects; decoding again on this failure path alone tells them apart.
    const full = decodeBase58(text, field)
    if (!full.ok) return full
    return err(
      "BadChecksum",
      full.value.length < 4 ? "too short to carry a checksum" : "checksum does not match",
      field
    )
  }
}
