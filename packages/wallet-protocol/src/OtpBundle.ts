import { fromHex, fromUtf8, toHex, toUtf8 } from "./Encoding.js"
import * as Hpke from "./Hpke.js"
import { asJsonObject, parseJson, parseJsonObject, stringField, type JsonObject } from "./internal/json.js"
import * as P256 from "./P256.js"
import { err, ok, type Result } from "./Result.js"

/** The two parts of an `encryptedOtpBundle`: the 65-byte uncompressed encapsulated key and `ciphertext ‖ tag`. */
export interface EncryptedOtpBundle {
  readonly encappedPublic: Uint8Array
  readonly ciphertext: Uint8Array
}

/** What the device encrypts: the OTP code (a string, leading zeros kept) and its TEK public key as SEC1 hex. */
export interface OtpPlaintext {
  readonly otpCode: string
  readonly publicKey: string
}

/** A decrypted and validated OTP plaintext; `publicKey` is the TEK as a point, whichever form the device sent. */
export interface OpenedOtp {
  readonly otpCode: string
  /** `public_key` exactly as sent. */
  readonly publicKeyHex: string
  readonly publicKey: P256.PublicKey
}

/**
 * Encodes the bundle as the JSON text `{"encappedPublic":"04…","ciphertext":"…"}` with lowercase hex, that key
 * order and no whitespace (Turnkey's `formatHpkeBuf`).
 */
export const encode = (bundle: EncryptedOtpBundle): string =>
  JSON.stringify({ encappedPublic: toHex(bundle.encappedPublic), ciphertext: toHex(bundle.ciphertext) })

const parseBundleJson = (text: string): Result<JsonObject> => {
  const parsed = parseJson(text, "encryptedOtpBundle")
  if (!parsed.ok) return parsed
  // The Grid CLI prints JSON.stringify(formatHpkeBuf(…)), a quoted JSON string; accept exactly one such level.
  return typeof parsed.value === "string"
    ? parseJsonObject(parsed.value, "encryptedOtpBundle")
    : asJsonObject(parsed.value, "encryptedOtpBundle")
}

/**
 * Decodes an `encryptedOtpBundle` field value. Also accepts the value double-encoded once as a JSON string literal
 * (what the Grid helper CLI prints). Fails with `BadJson`, `BadField`, `BadHex`, `WrongKeyLength` (an
 * `encappedPublic` that is not 65 bytes) or `InvalidPublicKey` (not `04`-prefixed).
 */
export const decode = (text: string): Result<EncryptedOtpBundle> => {
  const json = parseBundleJson(text)
  if (!json.ok) return json
  const encHex = stringField(json.value, "encappedPublic")
  if (!encHex.ok) return encHex
  const encappedPublic = fromHex(encHex.value, "encappedPublic")
  if (!encappedPublic.ok) return encappedPublic
  if (encappedPublic.value.length !== P256.UNCOMPRESSED_LENGTH) {
    return err("WrongKeyLength", `expected 65 bytes, got ${encappedPublic.value.length}`, "encappedPublic")
  }
  if (encappedPublic.value[0] !== 4) return err("InvalidPublicKey", "expected an 04 prefix", "encappedPublic")
  const ctHex = stringField(json.value, "ciphertext")
  if (!ctHex.ok) return ctHex
  const ciphertext = fromHex(ctHex.value, "ciphertext")
  if (!ciphertext.ok) return ciphertext
  if (ciphertext.value.length < Hpke.TAG_LENGTH) return err("BadField", "shorter than the AEAD tag", "ciphertext")
  return ok({ encappedPublic: encappedPublic.value, ciphertext: ciphertext.value })
}

/** Encodes the plaintext as the UTF-8 JSON `{"otp_code":"…","public_key":"…"}` in that key order. */
export const encodePlaintext = (plaintext: OtpPlaintext): Uint8Array =>
  toUtf8(JSON.stringify({ otp_code: plaintext.otpCode, public_key: plaintext.publicKey }))

/**
 * Decodes a plaintext by parsing its JSON (key order and whitespace are not significant) and validating
 * `public_key` as a P-256 key in either form. Fails with `BadUtf8`, `BadJson`, `BadField` or the key codes.
 */
export const decodePlaintext = (bytes: Uint8Array): Result<OpenedOtp> => {
  const text = fromUtf8(bytes, "plaintext")
  if (!text.ok) return text
  const json = parseJsonObject(text.value, "plaintext")
  if (!json.ok) return json
  const otpCode = stringField(json.value, "otp_code")
  if (!otpCode.ok) return otpCode
  const publicKeyHex = stringField(json.value, "public_key")
  if (!publicKeyHex.ok) return publicKeyHex
  const publicKey = P256.parsePublicKey(publicKeyHex.value, "public_key")
  if (!publicKey.ok) return publicKey
  return ok({ otpCode: otpCode.value, publicKeyHex: publicKeyHex.value, publicKey: publicKey.value })
}

/**
 * Encrypts an OTP code and TEK public key to a target key (the `targetPublic` of an OTP target bundle) and returns
 * the `encryptedOtpBundle` text. `publicKey` (either SEC1 form) is validated and sent lowercase in the form given.
 * `ephemeralPrivateKey` only reproduces test vectors.
 */
export const seal = async (options: {
  readonly targetPublicKey: P256.PublicKey
  readonly otpCode: string
  readonly publicKey: string
  readonly ephemeralPrivateKey?: Uint8Array
}): Promise<Result<string>> => {
  const tek = P256.parsePublicKey(options.publicKey, "publicKey")
  if (!tek.ok) return tek
  const plaintext = encodePlaintext({ otpCode: options.otpCode, publicKey: options.publicKey.toLowerCase() })
  const sealed = await Hpke.seal({
    plaintext,
    recipientPublicKey: options.targetPublicKey,
    ...(options.ephemeralPrivateKey === undefined ? {} : { ephemeralPrivateKey: options.ephemeralPrivateKey })
  })
  return sealed.ok ? ok(encode({ encappedPublic: sealed.value.enc, ciphertext: sealed.value.ciphertext })) : sealed
}

/**
 * Decodes, decrypts and validates an `encryptedOtpBundle` with the target private key (or an imported
 * {@link Hpke.RecipientKey}). Fails with the {@link decode} codes, `AeadFailure`, or the {@link decodePlaintext} codes.
 */
export const open = async (options: {
  readonly encryptedOtpBundle: string
  readonly recipient: Hpke.RecipientKey | string | Uint8Array
}): Promise<Result<OpenedOtp>> => {
  const bundle = decode(options.encryptedOtpBundle)
  if (!bundle.ok) return bundle
  const plaintext = await Hpke.open({
    enc: bundle.value.encappedPublic,
    ciphertext: bundle.value.ciphertext,
    recipient: options.recipient
  })
  return plaintext.ok ? decodePlaintext(plaintext.value) : plaintext
}
