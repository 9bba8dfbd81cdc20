import { fromHex, fromUtf8, toHex, toUtf8 } from "./Encoding.js"
import * as Hpke from "./Hpke.js"
import { parseJsonObject, stringField } from "./internal/json.js"
import * as P256 from "./P256.js"
import { err, ok, type Result } from "./Result.js"
import * as Signature from "./Signature.js"
import * as TargetBundle from "./TargetBundle.js"

/**
 * What a wallet export bundle (`encryptedWalletCredentials`) carries inside its signed `data`: the HPKE
 * encapsulated key (65 bytes, uncompressed), `ciphertext ‖ tag`, and the organization the wallet belongs to.
 */
export interface ExportData {
  readonly encappedPublic: Uint8Array
  readonly ciphertext: Uint8Array
  readonly organizationId: string
}

/**
 * A decoded export bundle: the outer fields, the `data` bytes and their contents, and the signature and signer
 * when the bundle carries them (Grid's sandbox sends both as empty strings; `undefined` here).
 */
export interface DecodedExportBundle extends ExportData {
  readonly bundle: TargetBundle.TargetBundle
  readonly data: Uint8Array
  readonly dataSignature: Signature.DerSignature | undefined
  readonly signerPublicKey: P256.PublicKey | undefined
}

/**
 * Encodes the signed `data` of an export bundle: UTF-8 JSON `{"encappedPublic","ciphertext","organizationId"}` in
 * that key order, lowercase hex, no whitespace (the Turnkey export shape).
 */
export const encodeData = (data: ExportData): Uint8Array =>
  toUtf8(
    JSON.stringify({
      encappedPublic: toHex(data.encappedPublic),
      ciphertext: toHex(data.ciphertext),
      organizationId: data.organizationId
    })
  )

const decodeData = (bytes: Uint8Array): Result<ExportData> => {
  const text = fromUtf8(bytes, "data")
  if (!text.ok) return text
  const json = parseJsonObject(text.value, "data")
  if (!json.ok) return json
  const encHex = stringField(json.value, "encappedPublic")
  if (!encHex.ok) return encHex
  const encappedPublic = fromHex(encHex.value, "encappedPublic")
  if (!encappedPublic.ok) return encappedPublic
  if (encappedPublic.value.length !== P256.UNCOMPRESSED_LENGTH || encappedPublic.value[0] !== 4) {
    return err("WrongKeyLength", "encappedPublic must be a 65-byte uncompressed key", "encappedPublic")
  }
  const ctHex = stringField(json.value, "ciphertext")
  if (!ctHex.ok) return ctHex
  const ciphertext = fromHex(ctHex.value, "ciphertext")
  if (!ciphertext.ok) return ciphertext
  if (ciphertext.value.length < Hpke.TAG_LENGTH) return err("BadField", "shorter than the AEAD tag", "ciphertext")
  const organizationId = stringField(json.value, "organizationId")
  if (!organizationId.ok) return organizationId
  return ok({
    encappedPublic: encappedPublic.value,
    ciphertext: ciphertext.value,
    organizationId: organizationId.value
  })
}

/**
 * Decodes export bundle text without verifying anything: `{version, data, dataSignature, enclaveQuorumPublic}` with
 * `version` `v1.0.0` and `data` as above. `dataSignature` and `enclaveQuorumPublic` may both be empty strings (an
 * unsigned bundle, as Grid's sandbox sends); otherwise they must be a DER signature and an uncompressed key. Fails
 * with `BadJson`, `BadField`, `UnsupportedVersion`, `BadHex`, `BadUtf8`, the DER codes or the key codes.
 */
export const decode = (text: string): Result<DecodedExportBundle> => {
  const json = parseJsonObject(text, "exportBundle")
  if (!json.ok) return json
  const fields = ["version", "data", "dataSignature", "enclaveQuorumPublic"] as const
  const values: Record<(typeof fields)[number], string> = {
    version: "",
    data: "",
    dataSignature: "",
    enclaveQuorumPublic: ""
  }
  for (const name of fields) {
    const value = stringField(json.value, name)
    if (!value.ok) return value
    values[name] = value.value
  }
  if (values.version !== TargetBundle.VERSION) {
    return err("UnsupportedVersion", `unsupported version "${values.version}"`, "version")
  }
  const data = fromHex(values.data, "data")
  if (!data.ok) return data
  const contents = decodeData(data.value)
  if (!contents.ok) return contents
  const unsigned = values.dataSignature === "" && values.enclaveQuorumPublic === ""
  let dataSignature: Signature.DerSignature | undefined
  let signerPublicKey: P256.PublicKey | undefined
  if (!unsigned) {
    const signature = Signature.decodeDerHex(values.dataSignature, "dataSignature")
    if (!signature.ok) return signature
    const signer = P256.parseUncompressedPublicKey(values.enclaveQuorumPublic, "enclaveQuorumPublic")
    if (!signer.ok) return signer
    dataSignature = signature.value
    signerPublicKey = signer.value
  }
  return ok({ ...contents.value, bundle: values, data: data.value, dataSignature, signerPublicKey })
}

/**
 * Seals `plaintext` (a wallet's mnemonic as UTF-8 bytes) to the requester's key with the HPKE suite of the wallet
 * formats (info `turnkey_hpke`, AAD `enc ‖ pkR`), and returns the bundle text signed by `signerPrivateKey`, which
 * Turnkey's `decryptExportBundle` (pinned to our signer key) and {@link open} read. `ephemeralPrivateKey` only
 * reproduces test vectors. Fails only on an invalid signer key.
 */
export const seal = async (options: {
  readonly plaintext: Uint8Array
  readonly recipientPublicKey: P256.PublicKey
  readonly organizationId: string
  readonly signerPrivateKey: string | Uint8Array
  readonly ephemeralPrivateKey?: Uint8Array
}): Promise<Result<string>> => {
  const signerPrivateKey = P256.parsePrivateKey(options.signerPrivateKey, "signerPrivateKey")
  if (!signerPrivateKey.ok) return signerPrivateKey
  const sealed = await Hpke.seal({
    plaintext: options.plaintext,
    recipientPublicKey: options.recipientPublicKey,
    ...(options.ephemeralPrivateKey === undefined ? {} : { ephemeralPrivateKey: options.ephemeralPrivateKey })
  })
  if (!sealed.ok) return sealed
  const data = encodeData({
    encappedPublic: sealed.value.enc,
    ciphertext: sealed.value.ciphertext,
    organizationId: options.organizationId
  })
  return TargetBundle.sign({ data, signerPrivateKey: signerPrivateKey.value })
}

/**
 * Checks who signed a decoded bundle. With `signerPublicKey` the bundle must be signed by that key (compared as a
 * point; `SignerMismatch`, or `BadSignature` when unsigned or the signature fails). Without it a signed bundle's
 * signature must verify against its own `enclaveQuorumPublic` (integrity, not origin) and an unsigned one passes.
 */
export const verify = (decoded: DecodedExportBundle, signerPublicKey?: P256.PublicKey): Result<DecodedExportBundle> => {
  if (decoded.signerPublicKey === undefined || decoded.dataSignature === undefined) {
    return signerPublicKey === undefined
      ? ok(decoded)
      : err("BadSignature", "the bundle is not signed", "dataSignature")
  }
  if (signerPublicKey !== undefined && !P256.equals(decoded.signerPublicKey, signerPublicKey)) {
    return err("SignerMismatch", "the bundle is signed by another key", "enclaveQuorumPublic")
  }
  return Signature.verify(decoded.dataSignature, decoded.data, decoded.signerPublicKey)
    ? ok(decoded)
    : err("BadSignature", "dataSignature does not verify over data", "dataSignature")
}

/**
 * Decodes, verifies ({@link verify}) and decrypts an export bundle with the recipient private key, returning the
 * plaintext bytes. With `organizationId` the bundle's must equal it (`BadField`), as Turnkey's export helper checks.
 * Fails with the {@link decode} and {@link verify} codes, the key codes, or `AeadFailure` (another recipient,
 * altered bytes).
 */
export const open = async (options: {
  readonly bundle: string
  readonly recipient: Hpke.RecipientKey | string | Uint8Array
  readonly signerPublicKey?: P256.PublicKey
  readonly organizationId?: string
}): Promise<Result<Uint8Array>> => {
  const decoded = decode(options.bundle)
  if (!decoded.ok) return decoded
  const verified = verify(decoded.value, options.signerPublicKey)
  if (!verified.ok) return verified
  if (options.organizationId !== undefined && options.organizationId !== decoded.value.organizationId) {
    return err("BadField", "the bundle is for another organization", "organizationId")
  }
  return Hpke.open({
    enc: decoded.value.encappedPublic,
    ciphertext: decoded.value.ciphertext,
    recipient: options.recipient
  })
}
