import { Signer } from "@payrail/signer"
import { Encoding, P256, Result, Stamp } from "@payrail/wallet-protocol"
import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit, Layer } from "effect"
import fc from "fast-check"
import { StampVerifier } from "../src/index.js"
import { vectors } from "./helpers/vectors.js"

const backends: ReadonlyArray<[string, Layer.Layer<StampVerifier.StampVerifier>]> = [
  ["node:crypto", StampVerifier.layer],
  ["WebCrypto", StampVerifier.layerWebCrypto]
]

const verifyWith = (layer: Layer.Layer<StampVerifier.StampVerifier>, input: StampVerifier.VerifyStampInput) =>
  Effect.runPromiseExit(
    Effect.provide(
      Effect.flatMap(StampVerifier.StampVerifier, (v) => v.verify(input)),
      layer
    )
  )

const failureOf = async (layer: Layer.Layer<StampVerifier.StampVerifier>, input: StampVerifier.VerifyStampInput) => {
  const exit = await verifyWith(layer, input)
  if (Exit.isSuccess(exit)) throw new Error("expected a failure")
  const failure = Cause.failureOption(exit.cause)
  if (failure._tag === "None") throw new Error(`expected a typed failure, got ${Cause.pretty(exit.cause)}`)
  return { tag: failure.value._tag, check: failure.value.check }
}

const stampJson = (json: object): string => Buffer.from(JSON.stringify(json)).toString("base64url")

for (const [name, layer] of backends) {
  describe(`StampVerifier (${name})`, () => {
    for (const vector of vectors.stamps) {
      it(`verifies vector "${vector.description}" against its session key in either form`, async () => {
        const key = Result.getOrThrow(P256.parsePublicKey(vector.publicKeyHex))
        for (const registered of [key.compressedHex, key.uncompressedHex.toUpperCase()]) {
          const exit = await verifyWith(layer, {
            stamp: vector.stampHeaderValue,
            payloadToSign: vector.payload,
            sessionPublicKeys: [registered]
          })
          expect(exit).toEqual(Exit.succeed({ sessionPublicKey: registered, stampPublicKey: vector.publicKeyHex }))
        }
      })
    }

    it("finds the session that made the stamp among several", async () => {
      const [first, second] = [Signer.generateKeyPair(), Signer.generateKeyPair()]
      const stamp = Signer.stamp({ payloadToSign: "p", privateKey: second.privateKey })
      const exit = await verifyWith(layer, {
        stamp,
        payloadToSign: Encoding.toUtf8("p"),
        sessionPublicKeys: [first.publicKeyCompressed, second.publicKeyUncompressed]
      })
      expect(Exit.isSuccess(exit) && exit.value.sessionPublicKey).toBe(second.publicKeyUncompressed)
    })

    it("fails with check sessionKey for a valid stamp by a key of no active session", async () => {
      const vector = vectors.stamps[0]!
      const failure = await failureOf(layer, {
        stamp: vector.stampHeaderValue,
        payloadToSign: vector.payload,
        sessionPublicKeys: [vectors.stamps[1]!.publicKeyHex]
      })
      expect(failure).toEqual({ tag: "WalletSignatureInvalid", check: "sessionKey" })
    })

    it("fails with check signature when the stamp names the session key but another key signed", async () => {
      const vector = vectors.stamps[0]!
      const decoded = Result.getOrThrow(Stamp.decode(vector.stampHeaderValue))
      const forged = Stamp.encode({ ...decoded.stamp, publicKey: vectors.stamps[1]!.publicKeyHex })
      const failure = await failureOf(layer, {
        stamp: forged,
        payloadToSign: vector.payload,
        sessionPublicKeys: [vectors.stamps[1]!.publicKeyHex]
      })
      expect(failure).toEqual({ tag: "WalletSignatureInvalid", check: "signature" })
    })

    it("hashes the exact payload bytes: a re-serialised payload fails", async () => {
      const vector = vectors.stamps[1]!
      const reserialised = JSON.stringify(JSON.parse(vector.payload))
      const failure = await failureOf(layer, {
        stamp: vector.stampHeaderValue,
        payloadToSign: reserialised,
        sessionPublicKeys: [vector.publicKeyHex]
      })
      expect(failure).toEqual({ tag: "WalletSignatureInvalid", check: "signature" })
    })

    const good = JSON.parse(Buffer.from(vectors.stamps[0]!.stampHeaderValue, "base64url").toString()) as Record<
      string,
      string
    >
    const malformed: ReadonlyArray<[string, string, string]> = [
      ["bad base64url", "not base64!", "base64url"],
      ["not JSON", Buffer.from("{").toString("base64url"), "json"],
      ["a wrong scheme", stampJson({ ...good, scheme: "SIGNATURE_SCHEME_TK_API_SECP256K1" }), "scheme"],
      ["a missing publicKey", stampJson({ scheme: good["scheme"], signature: good["signature"] }), "publicKey"],
      ["a 32-byte publicKey", stampJson({ ...good, publicKey: "02".repeat(32) }), "publicKey"],
      ["a truncated DER signature", stampJson({ ...good, signature: good["signature"]!.slice(0, 60) }), "signature"],
      ["a raw r||s signature", stampJson({ ...good, signature: "11".repeat(64) }), "signature"]
    ]
    for (const [what, stamp, check] of malformed) {
      it(`fails with WalletSignatureMalformed check ${check} for ${what}`, async () => {
        const failure = await failureOf(layer, {
          stamp,
          payloadToSign: vectors.stamps[0]!.payload,
          sessionPublicKeys: [vectors.stamps[0]!.publicKeyHex]
        })
        expect(failure).toEqual({ tag: "WalletSignatureMalformed", check })
      })
    }

    it("treats a registered key that is not a P-256 key as a defect", async () => {
      const exit = await verifyWith(layer, {
        stamp: vectors.stamps[0]!.stampHeaderValue,
        payloadToSign: vectors.stamps[0]!.payload,
        sessionPublicKeys: ["02abcd"]
      })
      expect(Exit.isFailure(exit) && Cause.isDie(exit.cause)).toBe(true)
    })

    it("accepts device stamps over any payload and rejects any one-byte change of the payload", async () => {
      const session = Signer.generateKeyPair()
      await fc.assert(
        fc.asyncProperty(
          fc.uint8Array({ minLength: 1, maxLength: 80 }),
          fc.nat(),
          fc.integer({ min: 1, max: 255 }),
          async (payload, at, flip) => {
            const stamp = Result.getOrThrow(Stamp.create({ payload, privateKey: session.privateKey }))
            const input = { stamp, payloadToSign: payload, sessionPublicKeys: [session.publicKeyCompressed] }
            expect(Exit.isSuccess(await verifyWith(layer, input))).toBe(true)
            const tampered = Uint8Array.from(payload)
            tampered[at % payload.length] = (tampered[at % payload.length] ?? 0) ^ flip
            expect(await failureOf(layer, { ...input, payloadToSign: tampered })).toEqual({
              tag: "WalletSignatureInvalid",
              check: "signature"
            })
          }
        ),
        { numRuns: 30 }
      )
    })
  })
}

describe("StampVerifier inside an Effect program", () => {
  it.effect("verifies a signed retry made by @payrail/signer", () =>
    Effect.gen(function* () {
      const verifier = yield* StampVerifier.StampVerifier
      const session = Signer.generateKeyPair()
      const challenge = { payloadToSign: '{"op":"EXPORT"}', requestId: "Request:1", expiresAt: "2999-01-01T00:00:00Z" }
      const headers = Signer.signRetry({ challenge, privateKey: session.privateKey, now: 0 })
      const verified = yield* verifier.verify({
        stamp: headers["Service-Wallet-Signature"],
        payloadToSign: challenge.payloadToSign,
        sessionPublicKeys: [session.publicKeyUncompressed]
      })
      expect(verified.stampPublicKey).toBe(session.publicKeyCompressed)
    }).pipe(Effect.provide(StampVerifier.layer))
  )
})
