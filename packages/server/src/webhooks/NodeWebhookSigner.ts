import { createHmac, createSecretKey, type KeyObject } from "node:crypto"
import { Effect, Layer, Option, Redacted } from "effect"
import { WebhookSecret, WebhookSigner } from "@payrail/core"

/**
 * Signs webhook deliveries with `node:crypto`'s synchronous HMAC-SHA256: the same headers as the WebCrypto signer
 * (`WebhookSignature.headers`), without an asynchronous step per delivery, which costs a delivery worker several
 * times the HMAC itself. Keeps the key objects of the last `capacity` secrets (least recently used out) in this
 * process's memory only; text that is not a `whsec_` secret is skipped, as the WebCrypto signer does.
 */
export const make = (capacity = 256): WebhookSigner.WebhookSigner["Type"] => {
  const keys = new Map<string, Option.Option<KeyObject>>()
  const keyOf = (secret: Redacted.Redacted<string>): Option.Option<KeyObject> => {
    const text = Redacted.value(secret)
    const found = keys.get(text)
    if (found !== undefined) {
      // Re-inserted, so the Map's order is the order of last use.
      keys.delete(text)
      keys.set(text, found)
      return found
    }
    const key = Option.map(WebhookSecret.keyOf(secret), (bytes) => createSecretKey(bytes))
    keys.set(text, key)
    if (keys.size > capacity) {
      const oldest = keys.keys().next()
      if (oldest.done !== true) keys.delete(oldest.value)
    }
    return key
  }
  return {
    headers: (secrets, content) =>
      Effect.sync(() => {
        const message = `${content.id}.${content.timestampSeconds}.${content.body}`
        const signatures = secrets.flatMap((secret) =>
          Option.toArray(
            Option.map(keyOf(secret), (key) => `v1,${createHmac("sha256", key).update(message).digest("base64")}`)
          )
        )
        return {
          "webhook-id": content.id,
          "webhook-timestamp": String(content.timestampSeconds),
          "webhook-signature": signatures.join(" ")
        }
      })
  }
}

/** `WebhookSigner` on `node:crypto`. */
export const layer: Layer.Layer<WebhookSigner.WebhookSigner> = Layer.sync(WebhookSigner.WebhookSigner, () => make())
