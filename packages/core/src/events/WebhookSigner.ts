import { Context, Layer } from "effect"
import * as WebhookSignature from "./WebhookSignature.js"

/**
 * What signs webhook deliveries: the three Standard Webhooks headers of a delivery (`WebhookSignature.Signer`).
 * Optional: without it, deliveries are signed with WebCrypto (`WebhookSignature.makeSigner`), which every runtime
 * has; a runtime with a faster synchronous HMAC (Node's `node:crypto`, in `@payrail/server`) provides its own. Any
 * implementation must produce exactly the headers `WebhookSignature.headers` does for the same secrets and content.
 */
export class WebhookSigner extends Context.Tag("@payrail/core/WebhookSigner")<
  WebhookSigner,
  WebhookSignature.Signer
>() {}

/** The WebCrypto signer, keeping the imported keys of the last 256 secrets. */
export const webCrypto: Layer.Layer<WebhookSigner> = Layer.sync(WebhookSigner, () => WebhookSignature.makeSigner())
