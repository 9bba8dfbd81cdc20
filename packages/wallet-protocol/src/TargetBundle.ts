import { fromHex, fromUtf8, toHex, toUtf8 } from "./Encoding.js"
import { parseJsonObject, stringField, type JsonObject } from "./internal/json.js"
import * as P256 from "./P256.js"
import { err, ok, type Result } from "./Result.js"
import * as Signature from "./Signature.js"

/** The only bundle version in use. */
export const VERSION = "v1.0.0"

/**
 * A signed bundle (`otpEncryptionTargetBundle`, and the import/export bundles of the same shape) as JSON fields, in
 * wire key order: `data` is lowercase hex of UTF-8 JSON, `dataSignature` DER hex over SHA-256 of the decoded `data`
 * bytes, `enclaveQuorumPublic` the signer key as uncompressed hex.
 */
export interface TargetBundle {
  readonly version: string
  readonly data: string
  readonly dataSignature: string
  readonly enclaveQuorumPublic: string
}

/** A bundle that passed {@link decode}: the fields, the `data` bytes, the DER signature and the signer key. */
export interface DecodedTargetBundle {
  readonly bundle: TargetBundle
  readonly data: Uint8Array
  readonly dataSignature: Signature.DerSignature
  readonly signerPublicKey: P256.PublicKey
}

/** Encodes a bundle as JSON text with keys `version`, `data`, `dataSignature`, `enclaveQuorumPublic` in that order. */
export const encode = (bundle: TargetBundle): string =>
  JSON.stringify({
    version: bundle.version,
    data: bundle.data,
    dataSignature: bundle.dataSignature,
    enclaveQuorumPublic: bundle.enclaveQuorumPublic
  })

/**
 * Decodes bundle text without verifying the signature. Fails with `BadJson`, `BadField`, `UnsupportedVersion` (any
 * version but `v1.0.0`: the version is not signed, so an unknown one is refused rather than guessed at), `BadHex`,
 * `TruncatedDer`/`BadDer`, or the key codes (`enclaveQuorumPublic` must be uncompressed).
 */
export const decode = (text: string): Result<DecodedTargetBundle> => {
  const json = parseJsonObject(text, "bundle")
  if (!json.ok) return json
  const version = stringField(json.value, "version")
  if (!version.ok) return version
  if (version.value !== VERSION) return err("UnsupportedVersion", `unsupported version "${version.value}"`, "version")
  const dataHex = stringField(json.value, "data")
  if (!dataHex.ok) return dataHex
  const data = fromHex(dataHex.value, "data")
  if (!data.ok) return data
  const signatureHex = stringField(json.value, "dataSignature")
  if (!signatureHex.ok) return signatureHex
  const dataSignature = Signature.decodeDerHex(signatureHex.value, "dataSignature")
  if (!dataSignature.ok) return dataSignature
  const signerHex = stringField(json.value, "enclaveQuorumPublic")
  if (!signerHex.ok) return signerHex
  const signerPublicKey = P256.parseUncompressedPublicKey(signerHex.value, "enclaveQuorumPublic")
  if (!signerPublicKey.ok) return signerPublicKey
  return ok({
    bundle: {
      version: version.value,
      data: dataHex.value,
      dataSignature: signatureHex.value,
      enclaveQuorumPublic: signerHex.value
    },
    data: data.value,
    dataSignature: dataSignature.value,
    signerPublicKey: signerPublicKey.value
  })
}

/**
 * Signs `data` (the exact bytes that `data` will hex-encode) with the signer key and returns the bundle text. The
 * signature is RFC 6979 deterministic and `enclaveQuorumPublic` the lowercase uncompressed signer key, which is the
 * exact string Turnkey's `dangerouslyOverrideSignerPublicKey` must be set to. Fails only on an invalid private key.
 */
export const sign = (options: {
  readonly data: Uint8Array
  readonly signerPrivateKey: string | Uint8Array
}): Result<string> => {
  const signerPrivateKey = P256.parsePrivateKey(options.signerPrivateKey, "signerPrivateKey")
  if (!signerPrivateKey.ok) return signerPrivateKey
  return ok(
    encode({
      version: VERSION,
      data: toHex(options.data),
      dataSignature: Signature.signHex(options.data, signerPrivateKey.value),
      enclaveQuorumPublic: P256.publicKeyOf(signerPrivateKey.value).uncompressedHex
    })
  )
}

/** Builds and signs an OTP target bundle whose `data` is `{"targetPublic":"04…"}` (uncompressed, lowercase). */
export const createOtpTarget = (options: {
  readonly targetPublicKey: P256.PublicKey
  readonly signerPrivateKey: string | Uint8Array
}): Result<string> =>
  sign({
    data: toUtf8(JSON.stringify({ targetPublic: options.targetPublicKey.uncompressedHex })),
    signerPrivateKey: options.signerPrivateKey
  })

/**
 * Decodes a bundle and verifies it: `enclaveQuorumPublic` must be `signerPublicKey` as a point (`SignerMismatch`
 * otherwise) and `dataSignature` must verify over the `data` bytes, high-S allowed (`BadSignature`). Without
 * `signerPublicKey` only the signature against the embedded key is checked, which proves integrity, not origin.
 */
export const verify = (options: {
  readonly bundle: string
  readonly signerPublicKey?: P256.PublicKey
}): Result<DecodedTargetBundle> => {
  const decoded = decode(options.bundle)
  if (!decoded.ok) return decoded
  const { data, dataSignature, signerPublicKey } = decoded.value
  if (options.signerPublicKey !== undefined && !P256.equals(signerPublicKey, options.signerPublicKey)) {
    return err("SignerMismatch", "the bundle is signed by another key", "enclaveQuorumPublic")
  }
  if (!Signature.verify(dataSignature, data, signerPublicKey)) {
    return err("BadSignature", "dataSignature does not verify over data", "dataSignature")
  }
  return decoded
}

/**
 * Reads only the `data` bytes of bundle text, checking neither version, signature nor signer: what the Grid helper
 * CLI does. This proves nothing about origin; use it only for bundles received over a channel you already trust
 * (for example your own backend over TLS), and prefer {@link verify} with the signer key. Fails with `BadJson`,
 * `BadField` or `BadHex`.
 */
export const readData = (text: string): Result<{ readonly data: Uint8Array }> => {
  const json = parseJsonObject(text, "bundle")
  if (!json.ok) return json
  const dataHex = stringField(json.value, "data")
  if (!dataHex.ok) return dataHex
  const data = fromHex(dataHex.value, "data")
  return data.ok ? ok({ data: data.value }) : data
}

/** Parses the bundle's `data` bytes as a UTF-8 JSON object. Fails with `BadUtf8` or `BadJson`. */
export const dataJson = (decoded: { readonly data: Uint8Array }): Result<JsonObject> => {
  const text = fromUtf8(decoded.data, "data")
  return text.ok ? parseJsonObject(text.value, "data") : text
}

/**
 * Reads `targetPublic` from the bundle's data: the HPKE recipient of an OTP bundle, which must be an uncompressed
 * key (a compressed target makes Turnkey's encryption non-standard). Fails with `BadField` or the key codes.
 */
export const targetPublicKey = (decoded: { readonly data: Uint8Array }): Result<P256.PublicKey> => {
  const json = dataJson(decoded)
  if (!json.ok) return json
  const target = stringField(json.value, "targetPublic")
  return target.ok ? P256.parseUncompressedPublicKey(target.value, "targetPublic") : target
}
