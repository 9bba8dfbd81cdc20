import { DateTime, Duration, Effect, Encoding, Either, Option, Redacted, Schema } from "effect"
import { Ids, PlatformId, SchemaClass } from "../kernel/index.js"

/** The prefix Standard Webhooks gives a signing secret: `whsec_` followed by the base64 of the key. */
export const prefix = "whsec_"

/** How many random bytes a new secret's key has (Standard Webhooks asks for 24 to 64). */
export const keyLength = 32

/** How long a rotated-out secret keeps signing beside its successor, unless configured otherwise. */
export const defaultOverlap: Duration.Duration = Duration.hours(24)

/**
 * A platform's webhook signing secret. It is kept in clear: the server needs the key itself to compute each
 * HMAC (unlike API token secrets, which are only ever compared and so kept hashed). `expiresAt` is set when the
 * secret is rotated out: until then it signs beside its successor, so receivers can switch without losing a
 * delivery.
 */
export class WebhookSecret extends SchemaClass.Class<WebhookSecret>("WebhookSecret")({
  platformId: PlatformId.PlatformId,
  secret: Schema.Redacted(Schema.String),
  createdAt: Schema.DateTimeUtc,
  expiresAt: Schema.optional(Schema.DateTimeUtc)
}) {}

/** Whether the secret still signs at `now`: it was never rotated out, or its overlap has not ended. */
export const isActive = (secret: WebhookSecret, now: DateTime.Utc): boolean =>
  secret.expiresAt === undefined || DateTime.lessThan(now, secret.expiresAt)

/** A fresh secret: `whsec_` and the standard base64 of `keyLength` bytes from `Ids.randomBytes`. */
export const generate: Effect.Effect<Redacted.Redacted<string>, never, Ids.Ids> = Effect.flatMap(Ids.Ids, (ids) =>
  Effect.map(ids.randomBytes(keyLength), (bytes) => Redacted.make(`${prefix}${Encoding.encodeBase64(bytes)}`))
)

/** The HMAC key of a `whsec_…` secret (its base64 part decoded); none for text that is not such a secret. */
export const keyOf = (secret: Redacted.Redacted<string>): Option.Option<Uint8Array> => {
  const text = Redacted.value(secret)
  if (!text.startsWith(prefix)) return Option.none()
  return Option.filter(Either.getRight(Encoding.decodeBase64(text.slice(prefix.length))), (key) => key.length > 0)
}
