import { createHash } from "node:crypto"
import { Effect } from "effect"
import { Ids } from "@payrail/core"

/** The characters of a numeric code. */
export const DIGITS = "0123456789"
/** The characters of an alphanumeric code: upper-case letters and digits. */
export const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

/** The longest code {@link generate} makes. */
export const MAX_LENGTH = 64

/**
 * A one-time code of `length` characters, each drawn uniformly from {@link DIGITS} or {@link ALPHANUMERIC} with
 * bytes from the `Ids` service: bytes at or above the largest multiple of the alphabet size are rejected and drawn
 * again, so no character is likelier than another (no modulo bias). A length outside 1 to {@link MAX_LENGTH} is a
 * defect (a configuration the caller validates).
 */
export const generate = (options: {
  readonly length: number
  readonly alphanumeric: boolean
}): Effect.Effect<string, never, Ids.Ids> =>
  Effect.gen(function* () {
    const { length } = options
    if (!Number.isInteger(length) || length < 1 || length > MAX_LENGTH) {
      return yield* Effect.dieMessage(`an OTP code length must be an integer from 1 to ${MAX_LENGTH}`)
    }
    const alphabet = options.alphanumeric ? ALPHANUMERIC : DIGITS
    const limit = 256 - (256 % alphabet.length)
    const ids = yield* Ids.Ids
    let code = ""
    while (code.length < length) {
      // Twice the characters still missing: a batch is short only with negligible probability.
      for (const byte of yield* ids.randomBytes(2 * (length - code.length))) {
        if (byte < limit && code.length < length) code += alphabet[byte % alphabet.length]
      }
    }
    return code
  })

/**
 * The stored and compared form of a code: lowercase hex SHA-256 of its UTF-8 bytes upper-cased, so an alphanumeric
 * code matches whatever case the user typed it in. Codes are short and short-lived (a few attempts each), so a fast
 * hash is enough.
 */
export const digest = (code: string): string => createHash("sha256").update(code.toUpperCase(), "utf8").digest("hex")
