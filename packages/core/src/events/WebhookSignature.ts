import { Effect, Encoding, Option, Redacted } from "effect"
import { keyOf } from "./WebhookSecret.js"

/** The signed content of one delivery: what Standard Webhooks signs as `<id>.<timestamp>.<body>`. */
export interface SignedContent {
  readonly id: string
  /** Unix seconds of the attempt, sent as `webhook-timestamp`. */
  readonly timestampSeconds: number
  /** The exact body bytes sent, as text. */
  readonly body: string
}

const importKey = (key: Uint8Array): Promise<CryptoKey> =>
  // A copy typed as a plain `ArrayBuffer` view, which WebCrypto's signature asks for.
  globalThis.crypto.subtle.importKey("raw", Uint8Array.from(key), { name: "HMAC", hash: "SHA-256" }, false, ["sign"])

const hmacSha256 = (key: Promise<CryptoKey>, message: Uint8Array<ArrayBuffer>): Effect.Effect<Uint8Array> =>
  Effect.promise(async () => new Uint8Array(await globalThis.crypto.subtle.sign("HMAC", await key, message)))

/** Where a signer finds the HMAC key of a secret: imported afresh, or kept from an earlier import. */
type KeyOf = (secret: Redacted.Redacted<string>) => Option.Option<Promise<CryptoKey>>

const importEach: KeyOf = (secret) => Option.map(keyOf(secret), importKey)

const sign = (keys: KeyOf, secrets: ReadonlyArray<Redacted.Redacted<string>>, content: SignedContent) => {
  const message = new TextEncoder().encode(`${content.id}.${content.timestampSeconds}.${content.body}`)
  return Effect.map(
    Effect.forEach(
      secrets.flatMap((secret) => Option.toArray(keys(secret))),
      (key) => Effect.map(hmacSha256(key, message), (mac) => `v1,${Encoding.encodeBase64(mac)}`)
    ),
    (signatures) => signatures.join(" ")
  )
}

const headersOf = (keys: KeyOf, secrets: ReadonlyArray<Redacted.Redacted<string>>, content: SignedContent) =>
  Effect.map(sign(keys, secrets, content), (value) => ({
    "webhook-id": content.id,
    "webhook-timestamp": String(content.timestampSeconds),
    "webhook-signature": value
  }))

/**
 * The `webhook-signature` header value: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` for each secret, in the
 * given order, separated by spaces, as the Standard Webhooks libraries verify it (any one matching signature
 * passes). HMAC runs on WebCrypto (`crypto.subtle`, in Node 20+ and browsers), base64 is `effect/Encoding`. Text
 * that is not a `whsec_` secret is skipped.
 */
export const signature = (
  secrets: ReadonlyArray<Redacted.Redacted<string>>,
  content: SignedContent
): Effect.Effect<string> => sign(importEach, secrets, content)

/** The three Standard Webhooks headers of a delivery signed with `secrets`. */
export const headers = (
  secrets: ReadonlyArray<Redacted.Redacted<string>>,
  content: SignedContent
): Effect.Effect<Record<string, string>> => headersOf(importEach, secrets, content)

/** Signs deliveries as `headers` does, reusing the keys it imported. */
export interface Signer {
  readonly headers: (
    secrets: ReadonlyArray<Redacted.Redacted<string>>,
    content: SignedContent
  ) => Effect.Effect<Record<string, string>>
}

/**
 * A `Signer` that keeps the WebCrypto keys of the last `capacity` secrets it used (least recently used out, as
 * non-extractable `CryptoKey`s in this process's memory only), so that each secret's key is imported once rather
 * than for every delivery. The signatures are those of `headers`; a rotated-out secret's key simply stops being
 * used and falls out.
 */
export const makeSigner = (capacity = 256): Signer => {
  const imported = new Map<string, Promise<CryptoKey>>()
  const cached: KeyOf = (secret) => {
    const text = Redacted.value(secret)
    const found = imported.get(text)
    if (found !== undefined) {
      // Re-inserted, so the Map's order is the order of last use.
      imported.delete(text)
      imported.set(text, found)
      return Option.some(found)
    }
    return Option.map(importEach(secret), (key) => {
      imported.set(text, key)
      if (imported.size > capacity) {
        const oldest = imported.keys().next()
        if (oldest.done !== true) imported.delete(oldest.value)
      }
      return key
    })
  }
  return { headers: (secrets, content) => headersOf(cached, secrets, content) }
}
