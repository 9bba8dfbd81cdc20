import fc from "fast-check"
import { describe, expect, it, vi } from "vitest"
import { Encoding, Hpke, P256, Result } from "../src/index.js"
import { vectors } from "./helpers/vectors.js"

const codeOf = <A>(result: Result.Result<A>): string | undefined => (result.ok ? undefined : result.error.code)

describe("Hpke", () => {
  it("uses info 'turnkey_hpke'", () => {
    expect(Encoding.toHex(Hpke.INFO)).toBe(vectors.meta.hpke.infoHex)
  })

  it("seal then open round-trips any plaintext, with enc sent uncompressed or compressed", async () => {
    const recipient = P256.generateKeyPair()
    const imported = Result.getOrThrow(await Hpke.importRecipientKey(recipient.privateKey))
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 200 }), fc.boolean(), async (plaintext, compressEnc) => {
        const sealed = Result.getOrThrow(await Hpke.seal({ plaintext, recipientPublicKey: recipient.publicKey }))
        expect(sealed.enc).toHaveLength(65)
        expect(sealed.ciphertext).toHaveLength(plaintext.length + Hpke.TAG_LENGTH)
        const enc = compressEnc ? P256.compress(sealed.enc) : sealed.enc
        const opened = Result.getOrThrow(await Hpke.open({ enc, ciphertext: sealed.ciphertext, recipient: imported }))
        expect(opened).toEqual(plaintext)
      }),
      { numRuns: 30 }
    )
  })

  it("seals to a compressed recipient key in the standard way (AAD and KEM context use the uncompressed key)", async () => {
    const recipient = P256.generateKeyPair()
    const compressedOnly = Result.getOrThrow(P256.parsePublicKey(recipient.publicKey.compressedHex))
    const sealed = Result.getOrThrow(
      await Hpke.seal({ plaintext: Encoding.toUtf8("x"), recipientPublicKey: compressedOnly })
    )
    const opened = await Hpke.open({ enc: sealed.enc, ciphertext: sealed.ciphertext, recipient: recipient.privateKey })
    expect(Result.getOrThrow(opened)).toEqual(Encoding.toUtf8("x"))
  })

  it("names AeadFailure for a ciphertext shorter than a tag or opened with the wrong key", async () => {
    const recipient = P256.generateKeyPair()
    const sealed = Result.getOrThrow(
      await Hpke.seal({ plaintext: Encoding.toUtf8("x"), recipientPublicKey: recipient.publicKey })
    )
    const other = P256.generateKeyPair().privateKey
    expect(codeOf(await Hpke.open({ enc: sealed.enc, ciphertext: sealed.ciphertext, recipient: other }))).toBe(
      "AeadFailure"
    )
    expect(
      codeOf(await Hpke.open({ enc: sealed.enc, ciphertext: new Uint8Array(15), recipient: recipient.privateKey }))
    ).toBe("AeadFailure")
  })

  it("names the key defect for a bad recipient key", async () => {
    const sealed = Result.getOrThrow(
      await Hpke.seal({ plaintext: Encoding.toUtf8("x"), recipientPublicKey: P256.generateKeyPair().publicKey })
    )
    expect(codeOf(await Hpke.open({ enc: sealed.enc, ciphertext: sealed.ciphertext, recipient: "00" }))).toBe(
      "WrongKeyLength"
    )
    expect(codeOf(await Hpke.importRecipientKey("00".repeat(32)))).toBe("InvalidPrivateKey")
  })

  it("derives the recipient public key in JavaScript where WebCrypto cannot export the private key", async () => {
    const recipient = P256.generateKeyPair()
    const sealed = Result.getOrThrow(
      await Hpke.seal({ plaintext: Encoding.toUtf8("x"), recipientPublicKey: recipient.publicKey })
    )
    const subtle = globalThis.crypto.subtle
    const original = subtle.exportKey.bind(subtle)
    const exportKey = vi
      .spyOn(subtle, "exportKey")
      .mockImplementation((format, key) =>
        format === "jwk" ? Promise.reject(new Error("not supported")) : original(format, key)
      )
    try {
      const imported = Result.getOrThrow(await Hpke.importRecipientKey(recipient.privateKey))
      expect(exportKey).toHaveBeenCalledWith("jwk", imported.keyPair.privateKey)
      expect(imported.publicKey.uncompressedHex).toBe(recipient.publicKey.uncompressedHex)
      const opened = await Hpke.open({ enc: sealed.enc, ciphertext: sealed.ciphertext, recipient: imported })
      expect(Result.getOrThrow(opened)).toEqual(Encoding.toUtf8("x"))
    } finally {
      exportKey.mockRestore()
    }
  })
})
