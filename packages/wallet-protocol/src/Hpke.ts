import { Aes256Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from "@hpke/core"
import { concat, fromBase64url, toUtf8 } from "./Encoding.js"
import * as P256 from "./P256.js"
import { err, ok, type Result } from "./Result.js"

/** The HPKE `info` of every wallet bundle: ASCII `turnkey_hpke`. */
export const INFO: Uint8Array = toUtf8("turnkey_hpke")

/** Byte length of the AES-256-GCM tag appended to every ciphertext. */
export const TAG_LENGTH = 16

let cachedSuite: CipherSuite | undefined

/** RFC 9180 base mode, DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-256-GCM, on the platform's WebCrypto. */
const suite = (): CipherSuite =>
  (cachedSuite ??= new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes256Gcm() }))

/**
 * A recipient private key imported once for repeated {@link open} calls, with its public key (the HPKE `pkR`, which
 * enters the AAD uncompressed). Importing costs more than one open, so servers keep these for a key's lifetime.
 */
export interface RecipientKey {
  readonly keyPair: CryptoKeyPair
  readonly publicKey: P256.PublicKey
}

/** The output of {@link seal}: the 65-byte uncompressed encapsulated key and `ciphertext ‖ tag`. */
export interface Sealed {
  readonly enc: Uint8Array
  readonly ciphertext: Uint8Array
}

/** The per-message AAD of the wallet formats: `enc` (65 bytes) ‖ `pkR` (65 bytes), both uncompressed. */
export const aad = (enc: Uint8Array, recipientPublicKey: P256.PublicKey): Uint8Array =>
  concat(enc, recipientPublicKey.uncompressed)

const importKeyPair = async (privateKey: Uint8Array, publicKey: P256.PublicKey): Promise<CryptoKeyPair> => {
  const kem = suite().kem
  return {
    privateKey: await kem.importKey("raw", Uint8Array.from(privateKey).buffer, false),
    publicKey: await kem.deserializePublicKey(publicKey.uncompressed)
  }
}

/**
 * The public key of an imported private key, read from its JWK export: native, where deriving it in JavaScript
 * costs a scalar multiplication. Undefined where the engine cannot export the key (some browsers).
 */
const exportedPublicKey = async (privateKey: CryptoKey): Promise<P256.PublicKey | undefined> => {
  try {
    const jwk = await globalThis.crypto.subtle.exportKey("jwk", privateKey)
    const x = fromBase64url(jwk.x ?? "")
    const y = fromBase64url(jwk.y ?? "")
    if (!x.ok || !y.ok) return undefined
    const publicKey = P256.parseUncompressedPublicKey(concat(Uint8Array.of(4), x.value, y.value))
    return publicKey.ok ? publicKey.value : undefined
  } catch {
    return undefined
  }
}

/**
 * Imports a private key (32 bytes or hex) as an HPKE recipient. Fails with `BadHex`, `WrongKeyLength` or
 * `InvalidPrivateKey`.
 */
export const importRecipientKey = async (privateKey: string | Uint8Array): Promise<Result<RecipientKey>> => {
  const parsed = P256.parsePrivateKey(privateKey)
  if (!parsed.ok) return parsed
  const kem = suite().kem
  const imported = await kem.importKey("raw", Uint8Array.from(parsed.value).buffer, false)
  const publicKey = (await exportedPublicKey(imported)) ?? P256.publicKeyOf(parsed.value)
  return ok({
    keyPair: { privateKey: imported, publicKey: await kem.deserializePublicKey(publicKey.uncompressed) },
    publicKey
  })
}

/**
 * Seals `plaintext` to a recipient in single-shot base mode with info `turnkey_hpke` and AAD `enc ‖ pkR`, where
 * `pkR` is always the uncompressed recipient key (a compressed input is decompressed first, so the output is
 * standard RFC 9180 and opens with any implementation). The ephemeral key is fresh from WebCrypto unless
 * `ephemeralPrivateKey` is given, which exists to reproduce test vectors and must not be used otherwise.
 */
export const seal = async (options: {
  readonly plaintext: Uint8Array
  readonly recipientPublicKey: P256.PublicKey
  readonly ephemeralPrivateKey?: Uint8Array
}): Promise<Result<Sealed>> => {
  let ekm: CryptoKeyPair | undefined
  if (options.ephemeralPrivateKey !== undefined) {
    const ephemeral = P256.parsePrivateKey(options.ephemeralPrivateKey, "ephemeralPrivateKey")
    if (!ephemeral.ok) return ephemeral
    ekm = await importKeyPair(ephemeral.value, P256.publicKeyOf(ephemeral.value))
  }
  const recipientPublicKey = await suite().kem.deserializePublicKey(options.recipientPublicKey.uncompressed)
  const context = await suite().createSenderContext(
    ekm === undefined ? { recipientPublicKey, info: INFO } : { recipientPublicKey, info: INFO, ekm }
  )
  const enc = new Uint8Array(context.enc)
  const ciphertext = new Uint8Array(await context.seal(options.plaintext, aad(enc, options.recipientPublicKey)))
  return ok({ enc, ciphertext })
}

/**
 * Opens a ciphertext sealed by {@link seal} (or by Turnkey's `hpkeEncrypt`). `enc` may be compressed (33 bytes, as in
 * credential bundles) or uncompressed (65 bytes); it is decompressed before it enters the KEM context and the AAD.
 * The recipient is a {@link RecipientKey} or a raw private key. Fails with the key parsing codes, with
 * `InvalidPublicKey` for an `enc` that is not a curve point, and with `AeadFailure` when the tag does not verify
 * (wrong key, wrong AAD, any altered byte).
 */
export const open = async (options: {
  readonly enc: Uint8Array
  readonly ciphertext: Uint8Array
  readonly recipient: RecipientKey | string | Uint8Array
}): Promise<Result<Uint8Array>> => {
  const enc = P256.parsePublicKey(options.enc, "encappedPublic")
  if (!enc.ok) return enc
  if (options.ciphertext.length < TAG_LENGTH) return err("AeadFailure", "shorter than the AEAD tag", "ciphertext")
  let recipient: RecipientKey
  if (typeof options.recipient === "string" || options.recipient instanceof Uint8Array) {
    const imported = await importRecipientKey(options.recipient)
    if (!imported.ok) return imported
    recipient = imported.value
  } else {
    recipient = options.recipient
  }
  let context: Awaited<ReturnType<CipherSuite["createRecipientContext"]>>
  try {
    context = await suite().createRecipientContext({
      recipientKey: recipient.keyPair,
      enc: enc.value.uncompressed,
      info: INFO
    })
  } catch {
    return err("InvalidPublicKey", "the encapsulated key was rejected by the KEM", "encappedPublic")
  }
  try {
    return ok(new Uint8Array(await context.open(options.ciphertext, aad(enc.value.uncompressed, recipient.publicKey))))
  } catch {
    return err("AeadFailure", "decryption failed: wrong key, wrong AAD or altered ciphertext", "ciphertext")
  }
}
