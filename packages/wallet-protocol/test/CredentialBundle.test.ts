import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Base58Check, CredentialBundle, Encoding, Hpke, P256, Result } from "../src/index.js"
import { flipByte, hex, vectors } from "./helpers/vectors.js"

const codeOf = <A>(result: Result.Result<A>): string | undefined => (result.ok ? undefined : result.error.code)

describe("CredentialBundle vectors", () => {
  for (const vector of vectors.credentialBundles) {
    describe(vector.description, () => {
      it("decodes into the vector's compressed enc and ciphertext, and re-encodes to the same text", () => {
        const decoded = Result.getOrThrow(CredentialBundle.decode(vector.bundle))
        expect(Encoding.toHex(decoded.encappedPublic)).toBe(vector.decoded.compressedEncappedPublicHex)
        expect(Encoding.toHex(decoded.ciphertext)).toBe(vector.decoded.ciphertextWithTagHex)
        expect(CredentialBundle.encode(decoded)).toBe(vector.bundle)
      })

      it("opens to the session private key, whose public key matches", async () => {
        const opened = Result.getOrThrow(
          await CredentialBundle.openSessionKey({ bundle: vector.bundle, recipient: vector.recipientPrivateKeyHex })
        )
        expect(Encoding.toHex(opened.privateKey)).toBe(vector.expectedSessionPrivateKeyHex)
        expect(opened.publicKey.compressedHex).toBe(vector.expectedSessionPublicKeyCompressedHex)
        expect(P256.publicKeyOf(hex(vector.recipientPrivateKeyHex)).uncompressedHex).toBe(vector.recipientPublicKeyHex)
      })

      if (vector.ephemeralPrivateKeyHex !== null) {
        const ephemeralPrivateKey = hex(vector.ephemeralPrivateKeyHex)
        it("is reproduced byte for byte with the vector's ephemeral key", async () => {
          const bundle = await CredentialBundle.seal({
            plaintext: hex(vector.expectedSessionPrivateKeyHex),
            recipientPublicKey: Result.getOrThrow(P256.parsePublicKey(vector.recipientPublicKeyHex)),
            ephemeralPrivateKey
          })
          expect(Result.getOrThrow(bundle)).toBe(vector.bundle)
          if (vector.hpkeIntermediates !== undefined) {
            const decoded = Result.getOrThrow(CredentialBundle.decode(vector.bundle))
            const enc = Result.getOrThrow(P256.parsePublicKey(decoded.encappedPublic)).uncompressed
            const recipient = Result.getOrThrow(P256.parsePublicKey(vector.recipientPublicKeyHex))
            expect(Encoding.toHex(Hpke.aad(enc, recipient))).toBe(vector.hpkeIntermediates.aad)
          }
        })
      }
    })
  }
})

describe("CredentialBundle errors", () => {
  const vector = vectors.credentialBundles[0]!

  it("names BadBase58 for a character outside the alphabet", () => {
    expect(codeOf(CredentialBundle.decode(`0${vector.bundle.slice(1)}`))).toBe("BadBase58")
  })

  it("names BadChecksum when one character changes", () => {
    const swapped = vector.bundle.slice(0, 10) + (vector.bundle[10] === "a" ? "b" : "a") + vector.bundle.slice(11)
    expect(codeOf(CredentialBundle.decode(swapped))).toBe("BadChecksum")
  })

  it("names WrongKeyLength for a payload too short to hold enc and tag", () => {
    expect(codeOf(CredentialBundle.decode(Base58Check.encode(new Uint8Array(40).fill(2))))).toBe("WrongKeyLength")
  })

  it("names InvalidPublicKey for an uncompressed-prefixed enc", () => {
    expect(codeOf(CredentialBundle.decode(Base58Check.encode(new Uint8Array(81).fill(4))))).toBe("InvalidPublicKey")
  })

  it("names AeadFailure when opened with another key", async () => {
    const other = vectors.credentialBundles[1]!.recipientPrivateKeyHex
    expect(codeOf(await CredentialBundle.open({ bundle: vector.bundle, recipient: other }))).toBe("AeadFailure")
  })

  it("names WrongKeyLength when the sealed plaintext is not a 32-byte scalar", async () => {
    const recipient = P256.generateKeyPair()
    const bundle = Result.getOrThrow(
      await CredentialBundle.seal({
        plaintext: Encoding.toUtf8("ab".repeat(32)),
        recipientPublicKey: recipient.publicKey
      })
    )
    const opened = await CredentialBundle.openSessionKey({ bundle, recipient: recipient.privateKey })
    expect(codeOf(opened)).toBe("WrongKeyLength")
  })

  it("seals a plaintext up to MAX_PLAINTEXT_LENGTH and names WrongKeyLength beyond it, never throwing", async () => {
    const recipient = P256.generateKeyPair()
    const largest = new Uint8Array(CredentialBundle.MAX_PLAINTEXT_LENGTH).fill(0xa5)
    const bundle = Result.getOrThrow(
      await CredentialBundle.seal({ plaintext: largest, recipientPublicKey: recipient.publicKey })
    )
    expect(Result.getOrThrow(await CredentialBundle.open({ bundle, recipient: recipient.privateKey }))).toEqual(largest)
    const tooLong = await CredentialBundle.seal({
      plaintext: new Uint8Array(CredentialBundle.MAX_PLAINTEXT_LENGTH + 1),
      recipientPublicKey: recipient.publicKey
    })
    expect(codeOf(tooLong)).toBe("WrongKeyLength")
    expect(tooLong.ok ? undefined : tooLong.error.field).toBe("plaintext")
  })

  it("names BadBase58 for a text longer than base58 decoding accepts", () => {
    expect(codeOf(CredentialBundle.decode(vector.bundle.repeat(40)))).toBe("BadBase58")
  })
})

describe("CredentialBundle properties", () => {
  const recipient = P256.generateKeyPair()
  const scalarArb = fc.uint8Array({ minLength: 48, maxLength: 48 }).map(P256.privateKeyFromSeed)

  it("seal then open round-trips any session key, to either form of the client key", async () => {
    await fc.assert(
      fc.asyncProperty(scalarArb, fc.boolean(), async (sessionKey, compressed) => {
        const recipientPublicKey = Result.getOrThrow(
          P256.parsePublicKey(compressed ? recipient.publicKey.compressed : recipient.publicKey.uncompressed)
        )
        const bundle = Result.getOrThrow(await CredentialBundle.seal({ plaintext: sessionKey, recipientPublicKey }))
        const opened = Result.getOrThrow(
          await CredentialBundle.openSessionKey({ bundle, recipient: recipient.privateKey })
        )
        expect(opened.privateKey).toEqual(sessionKey)
      }),
      { numRuns: 25 }
    )
  })

  it("rejects any change to one character of the bundle text", async () => {
    const bundle = Result.getOrThrow(
      await CredentialBundle.seal({
        plaintext: P256.generateKeyPair().privateKey,
        recipientPublicKey: recipient.publicKey
      })
    )
    const alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
    await fc.assert(
      fc.asyncProperty(fc.nat(bundle.length - 1), fc.nat(alphabet.length - 1), async (at, pick) => {
        fc.pre(alphabet[pick] !== bundle[at])
        const tampered = bundle.slice(0, at) + alphabet.charAt(pick) + bundle.slice(at + 1)
        expect((await CredentialBundle.open({ bundle: tampered, recipient: recipient.privateKey })).ok).toBe(false)
      }),
      { numRuns: 100 }
    )
  })

  it("rejects any change to one byte of the payload even with a recomputed checksum", async () => {
    const bundle = Result.getOrThrow(
      await CredentialBundle.seal({
        plaintext: P256.generateKeyPair().privateKey,
        recipientPublicKey: recipient.publicKey
      })
    )
    const payload = Result.getOrThrow(Base58Check.decode(bundle))
    await fc.assert(
      fc.asyncProperty(fc.nat(payload.length - 1), fc.integer({ min: 1, max: 255 }), async (at, flip) => {
        const tampered = Base58Check.encode(flipByte(payload, at, flip))
        expect((await CredentialBundle.open({ bundle: tampered, recipient: recipient.privateKey })).ok).toBe(false)
      }),
      { numRuns: 100 }
    )
  })
})
