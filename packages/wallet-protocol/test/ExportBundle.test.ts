import { describe, expect, it } from "vitest"
import { Encoding, ExportBundle, OtpBundle, P256, Result, TargetBundle } from "../src/index.js"
import { flipByte, hex, vectors } from "./helpers/vectors.js"

const vector = vectors.otpBundles[0]!
const recipient = P256.publicKeyOf(hex(vector.targetPrivateKeyHex))
const signerPublicKey = Result.getOrThrow(P256.parsePublicKey(vector.signerPublicKeyHex))
const ORGANIZATION_ID = "Platform:019542f5-b3e7-1d02-0000-000000000001"
const MNEMONIC = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"

const codeOf = <A>(result: Result.Result<A>): string | undefined => (result.ok ? undefined : result.error.code)

const sealed = (plaintext: Uint8Array = Encoding.toUtf8(MNEMONIC)) =>
  ExportBundle.seal({
    plaintext,
    recipientPublicKey: recipient,
    organizationId: ORGANIZATION_ID,
    signerPrivateKey: vector.signerPrivateKeyHex,
    ephemeralPrivateKey: hex(vector.ephemeralPrivateKeyHex!)
  }).then(Result.getOrThrow)

/** The bundle with its data replaced by `edit(data JSON)`, re-signed with the vector's signer key. */
const resigned = (bundle: string, edit: (data: Record<string, string>) => Record<string, string>): string => {
  const decoded = Result.getOrThrow(ExportBundle.decode(bundle))
  const data = edit(JSON.parse(Buffer.from(decoded.data).toString("utf8")) as Record<string, string>)
  return Result.getOrThrow(
    TargetBundle.sign({ data: Encoding.toUtf8(JSON.stringify(data)), signerPrivateKey: vector.signerPrivateKeyHex })
  )
}

describe("ExportBundle", () => {
  it("is the Turnkey export shape: signed data {encappedPublic, ciphertext, organizationId} in that order", async () => {
    const bundle = await sealed()
    const outer = JSON.parse(bundle) as TargetBundle.TargetBundle
    expect(Object.keys(outer)).toEqual(["version", "data", "dataSignature", "enclaveQuorumPublic"])
    expect(outer.version).toBe("v1.0.0")
    expect(outer.enclaveQuorumPublic).toBe(vector.signerPublicKeyHex)
    const data = Buffer.from(outer.data, "hex").toString("utf8")
    expect(Object.keys(JSON.parse(data) as object)).toEqual(["encappedPublic", "ciphertext", "organizationId"])
    expect(data).toMatch(/^\{"encappedPublic":"04[0-9a-f]{128}","ciphertext":"[0-9a-f]+","organizationId":"[^"]+"\}$/)
    expect(codeOf(TargetBundle.verify({ bundle, signerPublicKey }))).toBeUndefined()
  })

  it("seals with the OTP bundle's HPKE: the spec vector's plaintext and ephemeral key give its ciphertext", async () => {
    const bundle = await sealed(Encoding.toUtf8(vector.expectedPlaintext))
    const decoded = Result.getOrThrow(ExportBundle.decode(bundle))
    const otp = Result.getOrThrow(OtpBundle.decode(vector.encryptedOtpBundle))
    expect(Encoding.toHex(decoded.encappedPublic)).toBe(Encoding.toHex(otp.encappedPublic))
    expect(Encoding.toHex(decoded.ciphertext)).toBe(Encoding.toHex(otp.ciphertext))
  })

  it("round trips: the recipient opens it, pinned to the signer and the organization", async () => {
    const bundle = await sealed()
    const opened = await ExportBundle.open({
      bundle,
      recipient: vector.targetPrivateKeyHex,
      signerPublicKey,
      organizationId: ORGANIZATION_ID
    })
    expect(Buffer.from(Result.getOrThrow(opened)).toString("utf8")).toBe(MNEMONIC)
    expect(codeOf(await ExportBundle.open({ bundle, recipient: vector.targetPrivateKeyHex }))).toBeUndefined()
  })

  it("refuses another recipient, altered ciphertext, another signer and another organization", async () => {
    const bundle = await sealed()
    const open = (text: string, options: { pin?: P256.PublicKey; organizationId?: string } = {}) =>
      ExportBundle.open({
        bundle: text,
        recipient: vector.tekPrivateKeyHex,
        ...(options.pin === undefined ? {} : { signerPublicKey: options.pin }),
        ...(options.organizationId === undefined ? {} : { organizationId: options.organizationId })
      }).then(codeOf)
    expect(await open(bundle)).toBe("AeadFailure")

    const tampered = resigned(bundle, (data) => ({
      ...data,
      ciphertext: Encoding.toHex(flipByte(hex(data["ciphertext"]!), 3, 0x01))
    }))
    const byRecipient = (text: string) =>
      ExportBundle.open({ bundle: text, recipient: vector.targetPrivateKeyHex, signerPublicKey }).then(codeOf)
    expect(await byRecipient(tampered)).toBe("AeadFailure")

    const outer = JSON.parse(bundle) as TargetBundle.TargetBundle
    const unsignedEdit = JSON.stringify({ ...outer, data: Encoding.toHex(flipByte(hex(outer.data), 40, 0x01)) })
    expect(await byRecipient(unsignedEdit)).toBe("BadSignature")

    const other = P256.publicKeyOf(hex(vector.tekPrivateKeyHex))
    expect(await open(bundle, { pin: other })).toBe("SignerMismatch")
    expect(
      await ExportBundle.open({
        bundle,
        recipient: vector.targetPrivateKeyHex,
        organizationId: "Platform:other"
      }).then(codeOf)
    ).toBe("BadField")
  })

  it("reads Grid's unsigned sandbox shape (empty signature and signer) only when no signer is pinned", async () => {
    const outer = JSON.parse(await sealed()) as TargetBundle.TargetBundle
    const unsigned = JSON.stringify({ ...outer, dataSignature: "", enclaveQuorumPublic: "" })
    const opened = await ExportBundle.open({ bundle: unsigned, recipient: vector.targetPrivateKeyHex })
    expect(Buffer.from(Result.getOrThrow(opened)).toString("utf8")).toBe(MNEMONIC)
    expect(
      codeOf(await ExportBundle.open({ bundle: unsigned, recipient: vector.targetPrivateKeyHex, signerPublicKey }))
    ).toBe("BadSignature")
  })

  it("names what is wrong with a malformed bundle", async () => {
    const outer = JSON.parse(await sealed()) as TargetBundle.TargetBundle
    const cases: ReadonlyArray<[string, string]> = [
      ["nope", "BadJson"],
      [JSON.stringify({ ...outer, version: "v2.0.0" }), "UnsupportedVersion"],
      [JSON.stringify({ ...outer, data: "zz" }), "BadHex"],
      [JSON.stringify({ ...outer, dataSignature: undefined }), "BadField"],
      [JSON.stringify({ ...outer, enclaveQuorumPublic: "" }), "WrongKeyLength"],
      [resigned(JSON.stringify(outer), ({ organizationId: _, ...data }) => data), "BadField"],
      [resigned(JSON.stringify(outer), (data) => ({ ...data, encappedPublic: "02" })), "WrongKeyLength"]
    ]
    expect(cases.map(([text]) => codeOf(ExportBundle.decode(text)))).toEqual(cases.map(([, code]) => code))
  })
})
