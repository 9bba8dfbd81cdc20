import * as Base58Check from "./Base58Check.js"
import { concat } from "./Encoding.js"
import * as Hpke from "./Hpke.js"
import * as P256 from "./P256.js"
import { err, ok, type Result } from "./Result.js"

/**
 * The parts of a credential bundle (`encryptedSessionSigningKey`): the compressed 33-byte encapsulated key and
 * `ciphertext ‖ tag`.
 */
export interface CredentialBundle {
  readonly encappedPublic: Uint8Array
  readonly ciphertext: Uint8Array
}

/**
 * The longest plaintext {@link seal} takes: the base58check payload `enc(33) ‖ plaintext ‖ tag(16)` is bounded by
 * {@link Base58Check.MAX_BYTES} less its checksum. A session key is 32 bytes.
 */
export const MAX_PLAINTEXT_LENGTH = Base58Check.MAX_BYTES - 4 - P256.COMPRESSED_LENGTH - Hpke.TAG_LENGTH

/**
 * Encodes the bundle as base58check over `compressed_enc(33) ‖ ciphertext ‖ tag`, with no version byte. `encappedPublic`
 * must be the 33-byte compressed key, and the ciphertext at most {@link MAX_PLAINTEXT_LENGTH} + 16 bytes (a
 * `RangeError` otherwise, a programming error).
 */
export const encode = (bundle: CredentialBundle): string =>
  Base58Check.encode(concat(bundle.encappedPublic, bundle.ciphertext))

/**
 * Decodes bundle text into its parts without decrypting. Fails with `BadBase58`, `BadChecksum`, `WrongKeyLength`
 * when the payload is too short to hold an encapsulated key and a tag, or `InvalidPublicKey` for a prefix other
 * than `02`/`03`.
 */
export const decode = (text: string): Result<CredentialBundle> => {
  const payload = Base58Check.decode(text, "bundle")
  if (!payload.ok) return payload
  if (payload.value.length < P256.COMPRESSED_LENGTH + Hpke.TAG_LENGTH) {
    return err("WrongKeyLength", `payload of ${payload.value.length} bytes is too short`, "bundle")
  }
  const encappedPublic = payload.value.subarray(0, P256.COMPRESSED_LENGTH)
  if (encappedPublic[0] !== 2 && encappedPublic[0] !== 3) {
    return err("InvalidPublicKey", "expected a compressed encapsulated key", "encappedPublic")
  }
  return ok({ encappedPublic, ciphertext: payload.value.subarray(P256.COMPRESSED_LENGTH) })
}

/**
 * Seals `plaintext` (for a session key: exactly the raw 32-byte scalar, never hex text) to the client's public key
 * and returns the base58check bundle that Turnkey's `decryptCredentialBundle` opens. Either key form is accepted;
 * HPKE always uses the uncompressed form. `ephemeralPrivateKey` only reproduces test vectors. Fails with
 * `WrongKeyLength` for a plaintext longer than {@link MAX_PLAINTEXT_LENGTH}.
 */
export const seal = async (options: {
  readonly plaintext: Uint8Array
  readonly recipientPublicKey: P256.PublicKey
  readonly ephemeralPrivateKey?: Uint8Array
}): Promise<Result<string>> => {
  if (options.plaintext.length > MAX_PLAINTEXT_LENGTH) {
    return err("WrongKeyLength", `a plaintext of at most ${MAX_PLAINTEXT_LENGTH} bytes fits a bundle`, "plaintext")
  }
  const sealed = await Hpke.seal(options)
  return sealed.ok
    ? ok(encode({ encappedPublic: P256.compress(sealed.value.enc), ciphertext: sealed.value.ciphertext }))
    : sealed
}

/**
 * Decodes and decrypts a bundle with the recipient private key (or an imported {@link Hpke.RecipientKey}), returning
 * the plaintext bytes. Fails with the {@link decode} codes, the key codes, or `AeadFailure`.
 */
export const open = async (options: {
  readonly bundle: string
  readonly recipient: Hpke.RecipientKey | string | Uint8Array
}): Promise<Result<Uint8Array>> => {
  const bundle = decode(options.bundle)
  if (!bundle.ok) return bundle
  return Hpke.open({
    enc: bundle.value.encappedPublic,
    ciphertext: bundle.value.ciphertext,
    recipient: options.recipient
  })
}

/**
 * Opens a bundle that carries a session signing key and validates the plaintext as a P-256 private scalar
 * (`WrongKeyLength` unless exactly 32 bytes, `InvalidPrivateKey` when out of range).
 */
export const openSessionKey = async (options: {
  readonly bundle: string
  readonly recipient: Hpke.RecipientKey | string | Uint8Array
}): Promise<Result<P256.KeyPair>> => {
  const plaintext = await open(options)
  if (!plaintext.ok) return plaintext
  const privateKey = P256.parsePrivateKey(plaintext.value, "sessionPrivateKey")
  return privateKey.ok
    ? ok({ privateKey: privateKey.value, publicKey: P256.publicKeyOf(privateKey.value) })
    : privateKey
}
