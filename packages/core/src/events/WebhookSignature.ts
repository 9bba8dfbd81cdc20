import { Effect, Encoding, Option, type Redacted } from "effect"
import { keyOf } from "./WebhookSecret.js"

/** The signed content of one delivery: what Standard Webhooks signs as `<id>.<timestamp>.<body>`. */
export interface SignedContent {
  readonly id: string
  /** Unix seconds of the attempt, sent as `webhook-timestamp`. */
  readonly timestampSeconds: number
  /** The exact body bytes sent, as text. */
  readonly body: string
}

const hmacSha256 = (key: Uint8Array, message: Uint8Array): Effect.Effect<Uint8Array> =>
  Effect.promise(async () => {
    const subtle = globalThis.crypto.subtle
    // Copies typed as plain `ArrayBuffer` views, which WebCrypto's signature asks for.
    const cryptoKey = await subtle.importKey("raw", Uint8Array.from(key), { name: "HMAC", hash: "SHA-256" }, false, [
      "sign"
    ])
    return new Uint8Array(await subtle.sign("HMAC", cryptoKey, Uint8Array.from(message)))
  })

/**
 * The `webhook-signature` header value: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` for each secret, in the
 * given order, separated by spaces, as the Standard Webhooks libraries verify it (any one matching signature
 * passes). HMAC runs on WebCrypto (`crypto.subtle`, in Node 20+ and browsers), base64 is `effect/Encoding`. Text
 * that is not a `whsec_` secret is skipped.
 */
export const signature = (
  secrets: ReadonlyArray<Redacted.Redacted<string>>,
  content: SignedContent
): Effect.Effect<string> => {
  const message = new TextEncoder().encode(`${content.id}.${content.timestampSeconds}.${content.body}`)
  return Effect.map(
    Effect.forEach(
      secrets.flatMap((secret) => Option.toArray(keyOf(secret))),
      (key) => Effect.map(hmacSha256(key, message), (mac) => `v1,${Encoding.encodeBase64(mac)}`)
    ),
    (signatures) => signatures.join(" ")
  )
}

/** The three Standard Webhooks headers of a delivery signed with `secrets`. */
export const headers = (
  secrets: ReadonlyArray<Redacted.Redacted<string>>,
  content: SignedContent
): Effect.Effect<Record<string, string>> =>
  Effect.map(signature(secrets, content), (value) => ({
    "webhook-id": content.id,
    "webhook-timestamp": String(content.timestampSeconds),
    "webhook-signature": value
  }))
