import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  Base58Check,
  CredentialBundle,
  Encoding,
  OtpBundle,
  P256,
  type Result,
  Signature,
  SignedRetry,
  Stamp,
  TargetBundle
} from "../src/index.js"
import { vectors } from "./helpers/vectors.js"

const isResult = (value: Result.Result<unknown>): boolean =>
  value.ok ? "value" in value : value.error.name === "WalletProtocolError" && value.error.code.length > 0

/** Arbitrary text, arbitrary JSON, and the real inputs with one character replaced. */
const hostileText = fc.oneof(
  fc.string({ unit: "binary" }),
  fc.json(),
  fc
    .tuple(
      fc.constantFrom(
        vectors.stamps[0]!.stampHeaderValue,
        vectors.otpBundles[0]!.encryptedOtpBundle,
        vectors.otpBundles[0]!.targetBundle,
        vectors.credentialBundles[0]!.bundle
      ),
      fc.nat(),
      fc.char()
    )
    .map(([text, at, char]) => text.slice(0, at % text.length) + char + text.slice((at % text.length) + 1))
)

describe("decoders return typed results on any input and never throw", () => {
  const recipient = P256.generateKeyPair().privateKey
  const signerPublicKey = P256.generateKeyPair().publicKey

  it("for text inputs", () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        for (const result of [
          Encoding.fromHex(text),
          Encoding.fromBase64url(text),
          Base58Check.decode(text),
          P256.parsePublicKey(text),
          P256.parsePrivateKey(text),
          Signature.decodeDerHex(text),
          Stamp.decode(text),
          Stamp.verify({ stamp: text, payload: text }),
          OtpBundle.decode(text),
          TargetBundle.decode(text),
          TargetBundle.readData(text),
          TargetBundle.verify({ bundle: text, signerPublicKey }),
          CredentialBundle.decode(text),
          SignedRetry.decodeChallenge(text)
        ]) {
          expect(isResult(result)).toBe(true)
        }
      }),
      { numRuns: 500 }
    )
  })

  it("for byte inputs", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 120 }), (bytes) => {
        for (const result of [
          Encoding.fromUtf8(bytes),
          P256.parsePublicKey(bytes),
          P256.parsePrivateKey(bytes),
          Signature.decodeDer(bytes),
          OtpBundle.decodePlaintext(bytes)
        ]) {
          expect(isResult(result)).toBe(true)
        }
      }),
      { numRuns: 500 }
    )
  })

  it("for the asynchronous openers", async () => {
    await fc.assert(
      fc.asyncProperty(hostileText, async (text) => {
        expect(isResult(await OtpBundle.open({ encryptedOtpBundle: text, recipient }))).toBe(true)
        expect(isResult(await CredentialBundle.open({ bundle: text, recipient }))).toBe(true)
      }),
      { numRuns: 200 }
    )
  })
})
