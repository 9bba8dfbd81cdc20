import { createPublicKey, verify as nodeVerify, type KeyObject } from "node:crypto"
import { P256, Signature, Stamp, type WalletProtocolError } from "@payrail/wallet-protocol"
import { Context, Effect, Layer, Schema } from "effect"
import { makeKeyCache, type CachedKey } from "./internal/keyCache.js"

/**
 * The `Service-Wallet-Signature` value could not be parsed; `check` names the layer that failed: the base64url
 * encoding, the JSON, the `scheme`, the `publicKey` field or the DER `signature`. Maps to the spec's 401
 * `WALLET_SIGNATURE_MALFORMED`.
 */
export class WalletSignatureMalformed extends Schema.TaggedError<WalletSignatureMalformed>()(
  "WalletSignatureMalformed",
  {
    check: Schema.Literal("base64url", "json", "scheme", "publicKey", "signature"),
    reason: Schema.String
  }
) {}

/**
 * The stamp is well formed but does not authorise the payload: `sessionKey` when its key is none of the registered
 * session keys (compared as points), `signature` when ECDSA verification over the exact payload bytes fails. Maps
 * to the spec's 401 `WALLET_SIGNATURE_INVALID`.
 */
export class WalletSignatureInvalid extends Schema.TaggedError<WalletSignatureInvalid>()("WalletSignatureInvalid", {
  check: Schema.Literal("sessionKey", "signature"),
  reason: Schema.String
}) {}

/** What to verify: the header value, the exact payload that was stamped, and the keys of the active sessions. */
export interface VerifyStampInput {
  readonly stamp: string
  /** The `payloadToSign` string as issued (hashed as its UTF-8 bytes), or its exact bytes. */
  readonly payloadToSign: string | Uint8Array
  /** Public keys (SEC1 hex, either form) of the sessions allowed to sign; the stamp must match one of them. */
  readonly sessionPublicKeys: ReadonlyArray<string>
}

/** A stamp that authorises its payload, and the registered session key (as given) that made it. */
export interface VerifiedStamp {
  readonly sessionPublicKey: string
  readonly stampPublicKey: string
}

/**
 * Verifies wallet signature stamps against registered session keys. Stateless apart from a bounded cache of
 * imported keys, so concurrent calls are safe. A registered key that is not a P-256 key is a defect (corrupt
 * storage), not a client error.
 */
export interface StampVerifierService {
  readonly verify: (
    input: VerifyStampInput
  ) => Effect.Effect<VerifiedStamp, WalletSignatureMalformed | WalletSignatureInvalid>
}

/** Tag of the {@link StampVerifierService}. */
export class StampVerifier extends Context.Tag("@payrail/wallet-auth/StampVerifier")<
  StampVerifier,
  StampVerifierService
>() {}

/** How many registered keys each verifier keeps imported. */
export const KEY_CACHE_CAPACITY = 10_000

const malformedCheck = (error: WalletProtocolError.WalletProtocolError): WalletSignatureMalformed["check"] => {
  switch (error.code) {
    case "BadBase64url":
      return "base64url"
    case "BadUtf8":
    case "BadJson":
      return "json"
    case "WrongScheme":
      return "scheme"
    default:
      return error.field === "scheme" ? "scheme" : error.field === "publicKey" ? "publicKey" : "signature"
  }
}

interface Backend<Native> {
  readonly load: (publicKey: P256.PublicKey) => Native
  /** Synchronous backends return a boolean, which keeps the per-stamp Effect overhead to a single `suspend`. */
  readonly verify: (
    key: Native,
    payload: Uint8Array | string,
    signature: Signature.DerSignature
  ) => boolean | Promise<boolean>
}

const make = <Native>(backend: Backend<Native>): StampVerifierService => {
  const keyFor = makeKeyCache(KEY_CACHE_CAPACITY, backend.load)
  return {
    verify: (input) =>
      Effect.suspend((): Effect.Effect<VerifiedStamp, WalletSignatureMalformed | WalletSignatureInvalid> => {
        const decoded = Stamp.decode(input.stamp)
        if (!decoded.ok) {
          return Effect.fail(
            new WalletSignatureMalformed({ check: malformedCheck(decoded.error), reason: decoded.error.message })
          )
        }
        const stampKeyHex = decoded.value.stamp.publicKey
        let matched: { readonly text: string; readonly key: CachedKey<Native> } | undefined
        for (const text of input.sessionPublicKeys) {
          const key = keyFor(text)
          if (key === undefined) return Effect.dieMessage("a registered session public key is not a P-256 key")
          if (P256.matchesHex(key.publicKey, stampKeyHex)) {
            matched = { text, key }
            break
          }
        }
        if (matched === undefined) {
          return Effect.fail(
            new WalletSignatureInvalid({
              check: "sessionKey",
              reason: "the stamp key is not a key of an active session"
            })
          )
        }
        const verified = { sessionPublicKey: matched.text, stampPublicKey: stampKeyHex }
        const conclude = (valid: boolean) =>
          valid
            ? Effect.succeed(verified)
            : Effect.fail(
                new WalletSignatureInvalid({
                  check: "signature",
                  reason: "the signature does not verify over the payload"
                })
              )
        const valid = backend.verify(matched.key.native, input.payloadToSign, decoded.value.signature)
        return typeof valid === "boolean"
          ? conclude(valid)
          : Effect.flatMap(
              Effect.promise(() => valid),
              conclude
            )
      })
  }
}

const SPKI_P256_PREFIX = Buffer.from("3059301306072a8648ce3d020106082a8648ce3d030107034200", "hex")

/**
 * Verification with `node:crypto` (OpenSSL): one `crypto.verify` with a cached `KeyObject` and `dsaEncoding: "der"`
 * per stamp, which accepts high-S as every stamp backend can emit it. The default for Node servers.
 */
export const layer: Layer.Layer<StampVerifier> = Layer.sync(StampVerifier, () =>
  make<KeyObject>({
    load: (publicKey) =>
      createPublicKey({ key: Buffer.concat([SPKI_P256_PREFIX, publicKey.uncompressed]), format: "der", type: "spki" }),
    verify: (key, payload, signature) =>
      nodeVerify("sha256", Stamp.payloadBytes(payload), { key, dsaEncoding: "der" }, signature.der)
  })
)

/**
 * Verification with WebCrypto (`crypto.subtle`), for runtimes without `node:crypto` (workers, Deno, Bun). The DER
 * signature is converted to the P1363 form WebCrypto expects; WebCrypto does not enforce low-S either.
 */
export const layerWebCrypto: Layer.Layer<StampVerifier> = Layer.sync(StampVerifier, () =>
  make<Promise<CryptoKey>>({
    load: (publicKey) => {
      const key = crypto.subtle.importKey(
        "raw",
        Uint8Array.from(publicKey.uncompressed),
        { name: "ECDSA", namedCurve: "P-256" },
        false,
        ["verify"]
      )
      // A cached import may never be awaited; observing it here keeps a rejection from crashing the process.
      key.catch(() => undefined)
      return key
    },
    verify: async (key, payload, signature) =>
      crypto.subtle.verify(
        { name: "ECDSA", hash: "SHA-256" },
        await key,
        Uint8Array.from(Signature.toCompact(signature)),
        Uint8Array.from(Stamp.payloadBytes(payload))
      )
  })
)
