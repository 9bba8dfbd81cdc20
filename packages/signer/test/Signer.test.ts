import fc from "fast-check"
import { Encoding, ExportBundle, OtpBundle, P256, Result, Stamp, TargetBundle } from "@payrail/wallet-protocol"
import { describe, expect, it } from "vitest"
import { Signer } from "../src/index.js"
import { vectors } from "./helpers/vectors.js"

const rejection = async (promise: Promise<unknown>): Promise<Signer.SignerError> => {
  try {
    await promise
  } catch (error) {
    if (error instanceof Signer.SignerError) return error
    throw error
  }
  throw new Error("expected a rejection")
}
const thrown = (f: () => unknown): Signer.SignerError => {
  try {
    f()
  } catch (error) {
    if (error instanceof Signer.SignerError) return error
    throw error
  }
  throw new Error("expected an error")
}
const keyOf = (hex: string): P256.PublicKey => Result.getOrThrow(P256.parsePublicKey(hex))

describe("generateKeyPair", () => {
  it("returns a lowercase private key and the matching public key in both forms", () => {
    const pair = Signer.generateKeyPair()
    expect(pair.privateKey).toMatch(/^[0-9a-f]{64}$/)
    expect(pair.publicKeyCompressed).toMatch(/^0[23][0-9a-f]{64}$/)
    expect(pair.publicKeyUncompressed).toMatch(/^04[0-9a-f]{128}$/)
    const derived = P256.publicKeyOf(Result.getOrThrow(P256.parsePrivateKey(pair.privateKey)))
    expect(derived.compressedHex).toBe(pair.publicKeyCompressed)
    expect(derived.uncompressedHex).toBe(pair.publicKeyUncompressed)
  })
})

describe("stamp", () => {
  it("reproduces every deterministic stamp vector byte for byte", () => {
    for (const vector of vectors.stamps.filter((v) => v.deterministic)) {
      expect(Signer.stamp({ payloadToSign: vector.payload, privateKey: vector.privateKeyHex })).toBe(
        vector.stampHeaderValue
      )
    }
  })

  it("throws WrongKeyLength for a malformed private key", () => {
    expect(thrown(() => Signer.stamp({ payloadToSign: "x", privateKey: "abcd" })).code).toBe("WrongKeyLength")
  })
})

describe("encryptOtpBundle", () => {
  for (const [index, vector] of vectors.otpBundles.entries()) {
    it(`encrypts to the target of vector bundle #${index + 1}, verified against its signer`, async () => {
      const encryptedOtpBundle = await Signer.encryptOtpBundle({
        otpEncryptionTargetBundle: vector.targetBundle,
        otpCode: vector.otpCode,
        publicKey: vector.tekPublicKeyHex,
        signerPublicKey: vector.signerPublicKeyHex
      })
      const opened = Result.getOrThrow(
        await OtpBundle.open({ encryptedOtpBundle, recipient: vector.targetPrivateKeyHex })
      )
      expect(opened.otpCode).toBe(vector.otpCode)
      expect(opened.publicKeyHex).toBe(vector.tekPublicKeyHex)
    })
  }

  const vector = vectors.otpBundles[0]!

  it("trusts the bundle as received when no signer key is given", async () => {
    const encryptedOtpBundle = await Signer.encryptOtpBundle({
      otpEncryptionTargetBundle: vector.targetBundle,
      otpCode: "000000",
      publicKey: vector.tekPublicKeyHex
    })
    expect(
      Result.getOrThrow(await OtpBundle.open({ encryptedOtpBundle, recipient: vector.targetPrivateKeyHex })).otpCode
    ).toBe("000000")
  })

  it("rejects a bundle signed by another key with SignerMismatch", async () => {
    const error = await rejection(
      Signer.encryptOtpBundle({
        otpEncryptionTargetBundle: vector.targetBundle,
        otpCode: "000000",
        publicKey: vector.tekPublicKeyHex,
        signerPublicKey: Signer.generateKeyPair().publicKeyUncompressed
      })
    )
    expect(error.code).toBe("SignerMismatch")
  })

  it("rejects a bundle whose target was swapped with BadSignature", async () => {
    const fields = JSON.parse(vector.targetBundle) as TargetBundle.TargetBundle
    const attacker = Signer.generateKeyPair()
    const data = Buffer.from(JSON.stringify({ targetPublic: attacker.publicKeyUncompressed })).toString("hex")
    const error = await rejection(
      Signer.encryptOtpBundle({
        otpEncryptionTargetBundle: TargetBundle.encode({ ...fields, data }),
        otpCode: "000000",
        publicKey: vector.tekPublicKeyHex,
        signerPublicKey: vector.signerPublicKeyHex
      })
    )
    expect(error.code).toBe("BadSignature")
  })

  it("rejects a TEK public key that is not a P-256 point", async () => {
    const error = await rejection(
      Signer.encryptOtpBundle({
        otpEncryptionTargetBundle: vector.targetBundle,
        otpCode: "1",
        publicKey: `02${"00".repeat(31)}01`
      })
    )
    expect(error.code).toBe("InvalidPublicKey")
  })
})

describe("openSessionKeyBundle", () => {
  for (const [index, vector] of vectors.credentialBundles.entries()) {
    it(`opens credential bundle vector #${index + 1} to its session key pair`, async () => {
      const session = await Signer.openSessionKeyBundle({
        encryptedSessionSigningKey: vector.bundle,
        privateKey: vector.recipientPrivateKeyHex
      })
      expect(session.privateKey).toBe(vector.expectedSessionPrivateKeyHex)
      expect(session.publicKeyCompressed).toBe(vector.expectedSessionPublicKeyCompressedHex)
    })
  }

  it("rejects with AeadFailure when the bundle was sealed to another key", async () => {
    const error = await rejection(
      Signer.openSessionKeyBundle({
        encryptedSessionSigningKey: vectors.credentialBundles[0]!.bundle,
        privateKey: Signer.generateKeyPair().privateKey
      })
    )
    expect(error.code).toBe("AeadFailure")
  })
})

describe("openExportBundle", () => {
  const signer = vectors.otpBundles[0]!
  const MNEMONIC = "legal winner thank year wave sausage worth useful legal winner thank yellow"
  const exportTo = async (recipientPublicKey: string, organizationId = "org-1") =>
    Result.getOrThrow(
      await ExportBundle.seal({
        plaintext: Encoding.toUtf8(MNEMONIC),
        recipientPublicKey: keyOf(recipientPublicKey),
        organizationId,
        signerPrivateKey: signer.signerPrivateKeyHex
      })
    )

  it("returns the mnemonic to the key it was sealed to, with and without pinning the signer", async () => {
    const device = Signer.generateKeyPair()
    const exportBundle = await exportTo(device.publicKeyUncompressed)
    expect(await Signer.openExportBundle({ exportBundle, privateKey: device.privateKey })).toBe(MNEMONIC)
    expect(
      await Signer.openExportBundle({
        exportBundle,
        privateKey: device.privateKey,
        signerPublicKey: signer.signerPublicKeyHex,
        organizationId: "org-1"
      })
    ).toBe(MNEMONIC)
  })

  it("rejects another device's key, another signer, another organization and an altered bundle", async () => {
    const device = Signer.generateKeyPair()
    const exportBundle = await exportTo(device.publicKeyUncompressed)
    const codeOf = (options: Partial<Parameters<typeof Signer.openExportBundle>[0]>) =>
      rejection(Signer.openExportBundle({ exportBundle, privateKey: device.privateKey, ...options })).then(
        (error) => error.code
      )
    expect(await codeOf({ privateKey: Signer.generateKeyPair().privateKey })).toBe("AeadFailure")
    expect(await codeOf({ signerPublicKey: Signer.generateKeyPair().publicKeyUncompressed })).toBe("SignerMismatch")
    expect(await codeOf({ organizationId: "org-2" })).toBe("BadField")
    const outer = JSON.parse(exportBundle) as TargetBundle.TargetBundle
    const data = Buffer.from(outer.data, "hex").toString("utf8")
    const ciphertext = data.replace(/"ciphertext":"(.)/, (_, c: string) => `"ciphertext":"${c === "0" ? "1" : "0"}`)
    const altered = JSON.stringify({ ...outer, data: Buffer.from(ciphertext, "utf8").toString("hex") })
    expect(await codeOf({ exportBundle: altered })).toBe("BadSignature")
  })
})

describe("signRetry", () => {
  const challenge = {
    type: "EMAIL_OTP",
    payloadToSign: '{"requestId":"Request:1","action":"VERIFY"}\n',
    requestId: "Request:019542f5-b3e7-1d02-0000-000000000001",
    expiresAt: "2025-10-13T12:05:00Z"
  }
  const before = Date.parse("2025-10-13T12:04:59Z")

  it("returns the stamp over the exact payload and the request id", () => {
    const session = Signer.generateKeyPair()
    const headers = Signer.signRetry({ challenge, privateKey: session.privateKey, now: before })
    expect(headers["Request-Id"]).toBe(challenge.requestId)
    const verified = Stamp.verify({
      stamp: headers["Service-Wallet-Signature"],
      payload: challenge.payloadToSign,
      publicKey: keyOf(session.publicKeyUncompressed)
    })
    expect(verified.ok).toBe(true)
  })

  it("accepts the challenge as JSON text", () => {
    const session = Signer.generateKeyPair()
    const fromText = Signer.signRetry({
      challenge: JSON.stringify(challenge),
      privateKey: session.privateKey,
      now: before
    })
    expect(fromText).toEqual(Signer.signRetry({ challenge, privateKey: session.privateKey, now: new Date(before) }))
  })

  it("refuses an expired challenge with ChallengeExpired, at and after expiresAt", () => {
    const privateKey = Signer.generateKeyPair().privateKey
    for (const now of [Date.parse(challenge.expiresAt), Date.parse(challenge.expiresAt) + 1]) {
      expect(thrown(() => Signer.signRetry({ challenge, privateKey, now })).code).toBe("ChallengeExpired")
    }
  })

  it("uses the device clock when no time is given", () => {
    const privateKey = Signer.generateKeyPair().privateKey
    expect(thrown(() => Signer.signRetry({ challenge, privateKey })).code).toBe("ChallengeExpired")
    const open = { ...challenge, expiresAt: "2999-01-01T00:00:00Z" }
    expect(Signer.signRetry({ challenge: open, privateKey })["Request-Id"]).toBe(challenge.requestId)
  })

  it("names the malformed field", () => {
    const privateKey = Signer.generateKeyPair().privateKey
    const missing = thrown(() =>
      Signer.signRetry({ challenge: JSON.stringify({ ...challenge, requestId: 1 }), privateKey, now: before })
    )
    expect([missing.code, missing.field]).toEqual(["BadField", "requestId"])
    const badTime = thrown(() =>
      Signer.signRetry({ challenge: { ...challenge, expiresAt: "soon" }, privateKey, now: before })
    )
    expect([badTime.code, badTime.field]).toEqual(["BadTimestamp", "expiresAt"])
  })

  it("produces a verifiable stamp for any payload", () => {
    const session = Signer.generateKeyPair()
    const publicKey = keyOf(session.publicKeyCompressed)
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (payloadToSign) => {
        const headers = Signer.signRetry({
          challenge: { ...challenge, payloadToSign },
          privateKey: session.privateKey,
          now: before
        })
        expect(Stamp.verify({ stamp: headers["Service-Wallet-Signature"], payload: payloadToSign, publicKey }).ok).toBe(
          true
        )
      }),
      { numRuns: 30 }
    )
  })
})

describe("a complete OTP device flow against the protocol", () => {
  it("logs in with an OTP and signs the retry with the TEK, which the server verifies", async () => {
    const serverSigner = P256.generateKeyPair()
    const target = P256.generateKeyPair()
    const otpEncryptionTargetBundle = Result.getOrThrow(
      TargetBundle.createOtpTarget({ targetPublicKey: target.publicKey, signerPrivateKey: serverSigner.privateKey })
    )
    const tek = Signer.generateKeyPair()
    const encryptedOtpBundle = await Signer.encryptOtpBundle({
      otpEncryptionTargetBundle,
      otpCode: "000000",
      publicKey: tek.publicKeyCompressed,
      signerPublicKey: serverSigner.publicKey.uncompressedHex
    })
    const opened = Result.getOrThrow(await OtpBundle.open({ encryptedOtpBundle, recipient: target.privateKey }))
    expect(opened.otpCode).toBe("000000")
    const challenge = { payloadToSign: "verify-otp", requestId: "Request:1", expiresAt: "2999-01-01T00:00:00Z" }
    const headers = Signer.signRetry({ challenge, privateKey: tek.privateKey })
    expect(
      Stamp.verify({ stamp: headers["Service-Wallet-Signature"], payload: "verify-otp", publicKey: opened.publicKey })
        .ok
    ).toBe(true)
  })
})
