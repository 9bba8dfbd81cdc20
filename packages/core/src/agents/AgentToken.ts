import { Effect, Encoding } from "effect"
import { Ids, Sha256 } from "../kernel/index.js"

/**
 * Agent access tokens: `gat_` then 40 lowercase hex digits (160 random bits from `Ids.randomBytes`). A token is
 * shown once, when its device code is redeemed; only its SHA-256 (lowercase hex) is stored.
 */
export const prefix = "gat_"

const shape = /^gat_[0-9a-f]{40}$/

/** Whether `text` has the form of an access token (anything else can never authenticate). */
export const isWellFormed = (text: string): boolean => shape.test(text)

/** The stored form of a token: SHA-256 of its text, lowercase hex. */
export const hash = (token: string): Effect.Effect<string> => Sha256.hex(token)

/** A new token and its hash; the token itself must never be stored or logged. */
export const issue: Effect.Effect<{ readonly token: string; readonly hash: string }, never, Ids.Ids> = Effect.gen(
  function* () {
    const ids = yield* Ids.Ids
    const token = `${prefix}${Encoding.encodeHex(yield* ids.randomBytes(20))}`
    return { token, hash: yield* hash(token) }
  }
)
