import { Schema } from "effect"
import { PlatformId } from "./PlatformId.js"
import { Timestamp } from "./Timestamp.js"

/** The most characters an `Idempotency-Key` may have. */
export const maxKeyLength = 255

/** Printable ASCII, space allowed inside but not at either end. */
export const keyPattern = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/

/**
 * An `Idempotency-Key`: 1 to 255 printable ASCII characters (space allowed inside, not at either end, since HTTP
 * trims it), so a key is never empty, never carries a control character and reads the same in every header parser.
 */
export const IdempotencyKey = Schema.String.pipe(
  Schema.minLength(1, { message: () => "must not be empty" }),
  Schema.maxLength(maxKeyLength, { message: () => `must be at most ${maxKeyLength} characters` }),
  Schema.pattern(keyPattern, {
    message: () => "must be printable ASCII characters without leading or trailing spaces"
  })
).annotations({ identifier: "IdempotencyKey", description: "1 to 255 printable ASCII characters" })
export type IdempotencyKey = typeof IdempotencyKey.Type

/** Where a key lives: keys are scoped by the caller's platform, so one platform's keys never meet another's. */
export interface KeyScope {
  readonly platformId: PlatformId
  readonly key: IdempotencyKey
}

/**
 * A hex SHA-256 of what makes two requests the same (method, path and body): a replay must carry the same
 * fingerprint as the request that claimed the key.
 */
export const Fingerprint = Schema.String.pipe(Schema.pattern(/^[0-9a-f]{64}$/)).annotations({
  identifier: "IdempotencyFingerprint"
})
export type Fingerprint = typeof Fingerprint.Type

/** The response stored for a key: what a replay answers, byte for byte. */
export const StoredResponse = Schema.Struct({
  status: Schema.Int.pipe(Schema.between(100, 599)),
  contentType: Schema.String,
  body: Schema.String
})
export type StoredResponse = typeof StoredResponse.Type

/** A completed request under a key: its fingerprint, its response and when the key was claimed. */
export const IdempotencyRecord = Schema.Struct({
  platformId: PlatformId,
  key: IdempotencyKey,
  fingerprint: Fingerprint,
  response: StoredResponse,
  createdAt: Timestamp
})
export type IdempotencyRecord = typeof IdempotencyRecord.Type
