import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { WalletSignatures } from "@payrail/core"
import { P256, Result } from "@payrail/wallet-protocol"
import { StampVerifier, WalletSignaturesAdapter } from "../src/index.js"
import { vectors } from "./helpers/vectors.js"

const live = WalletSignaturesAdapter.layer.pipe(Layer.provide(StampVerifier.layer))
const verify = (input: WalletSignatures.VerifyInput) =>
  Effect.flatMap(WalletSignatures.WalletSignatures, (signatures) => signatures.verify(input))
const uncompressed = (hex: string) => Result.getOrThrow(P256.parsePublicKey(hex)).uncompressedHex
const other = P256.generateKeyPair().publicKey.compressedHex

describe("WalletSignaturesAdapter", () => {
  it.effect("accepts every stamp vector (high-S too) and answers the allowed key as given, in either form", () =>
    Effect.gen(function* () {
      for (const vector of vectors.stamps) {
        const allowed = uncompressed(vector.publicKeyHex).toUpperCase()
        const verified = yield* verify({
          stamp: vector.stampHeaderValue,
          payloadToSign: vector.payload,
          allowedPublicKeys: [other, allowed]
        })
        expect(verified).toEqual({ publicKey: allowed })
      }
    }).pipe(Effect.provide(live))
  )

  it.effect("fails session_key for a key that is not allowed and signature for another payload", () =>
    Effect.gen(function* () {
      const vector = vectors.stamps[0]!
      const notAllowed = yield* Effect.flip(
        verify({ stamp: vector.stampHeaderValue, payloadToSign: vector.payload, allowedPublicKeys: [other] })
      )
      expect([notAllowed._tag, notAllowed.code, notAllowed.details]).toEqual([
        "WalletSignatureInvalid",
        "WALLET_SIGNATURE_INVALID",
        { check: "session_key" }
      ])
      const altered = yield* Effect.flip(
        verify({
          stamp: vector.stampHeaderValue,
          payloadToSign: `${vector.payload} `,
          allowedPublicKeys: [vector.publicKeyHex]
        })
      )
      expect([altered._tag, altered.details]).toEqual(["WalletSignatureInvalid", { check: "signature" }])
    }).pipe(Effect.provide(live))
  )

  it.effect("fails WALLET_SIGNATURE_MALFORMED naming the part that does not parse", () =>
    Effect.gen(function* () {
      const encode = (json: unknown) => Buffer.from(JSON.stringify(json)).toString("base64url")
      const stamp = JSON.parse(Buffer.from(vectors.stamps[0]!.stampHeaderValue, "base64url").toString()) as object
      const cases: ReadonlyArray<[string, string]> = [
        ["***", "base64url"],
        [Buffer.from("not json").toString("base64url"), "json"],
        [encode({ ...stamp, scheme: "OTHER" }), "scheme"],
        [encode({ ...stamp, publicKey: "02" }), "publicKey"],
        [encode({ ...stamp, signature: "3000" }), "signature"]
      ]
      for (const [value, part] of cases) {
        const error = yield* Effect.flip(verify({ stamp: value, payloadToSign: "x", allowedPublicKeys: [other] }))
        expect([error._tag, error.code, error.details]).toEqual([
          "WalletSignatureMalformed",
          "WALLET_SIGNATURE_MALFORMED",
          { part }
        ])
      }
    }).pipe(Effect.provide(live))
  )
})
