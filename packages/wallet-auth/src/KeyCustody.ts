import { createCipheriv, createDecipheriv, createHmac } from "node:crypto"
import { Encoding } from "@payrail/wallet-protocol"
import { Context, Effect, Layer, Option, Redacted, Schema } from "effect"
import { Ids } from "@payrail/core"

/**
 * Envelope encryption of the service's secrets (wallet mnemonics, OTP target keys) under one master key, so that
 * what is stored is useless without it and the master key can rotate without re-encrypting everything at once.
 *
 * A sealed secret is one line of ASCII text, `v1.<keyId>.<wrappedKey>.<ciphertext>`, every part base64url without
 * padding:
 * - `keyId`: the first 8 bytes of HMAC-SHA256(master key, `"payrail/key-custody/key-id"`). It names the master key
 *   that wrapped the data key without revealing anything about it; {@link open} picks the key by it.
 * - `wrappedKey`: `iv (12) ‖ AES-256-GCM(master key, data key (32)) ‖ tag (16)`.
 * - `ciphertext`: `iv (12) ‖ AES-256-GCM(data key, secret) ‖ tag (16)`.
 *
 * Each secret gets its own random data key; IVs and data keys come from the `Ids` service of `@payrail/core`. Both
 * encryptions take `v1.<keyId>.<purpose>` (ASCII) as additional data, so a part moved to another sealed text, another
 * key id or another purpose (a sealed OTP target key opened as a wallet secret) fails authentication.
 */
export type Purpose = "wallet-secret" | "otp-target-key"

/** The version prefix of every sealed text this module writes. */
export const VERSION = "v1"

/** A sealed text that cannot be opened: malformed, written under an unknown master key, or altered. A defect upstream. */
export class SealedSecretUnreadable extends Schema.TaggedError<SealedSecretUnreadable>()("SealedSecretUnreadable", {
  reason: Schema.String
}) {}

/** Options of {@link layer}: master keys as 64 hex digits (32 bytes), never logged. */
export interface Options {
  /** The key new secrets are sealed under. */
  readonly masterKey: Redacted.Redacted<string>
  /** Earlier master keys still accepted by {@link KeyCustodyService.open} while stored secrets are re-sealed. */
  readonly retiredMasterKeys?: ReadonlyArray<Redacted.Redacted<string>>
}

/**
 * Seals and opens secrets under the master key. Stateless apart from the keys; safe to call concurrently. The secret
 * in clear exists only in the caller's memory.
 */
export interface KeyCustodyService {
  /** The key id of the current master key (as written in every new sealed text). */
  readonly keyId: string
  readonly seal: (purpose: Purpose, secret: Uint8Array) => Effect.Effect<string>
  readonly open: (purpose: Purpose, sealed: string) => Effect.Effect<Uint8Array, SealedSecretUnreadable>
}

/** Tag of the {@link KeyCustodyService}. */
export class KeyCustody extends Context.Tag("@payrail/wallet-auth/KeyCustody")<KeyCustody, KeyCustodyService>() {}

const KEY_LENGTH = 32
const IV_LENGTH = 12
const TAG_LENGTH = 16

/** The 32-byte master key of 64 hex digits, or none. */
export const parseMasterKey = (masterKey: Redacted.Redacted<string>): Option.Option<Uint8Array> => {
  const text = Redacted.value(masterKey)
  if (!/^[0-9a-fA-F]{64}$/.test(text)) return Option.none()
  const bytes = Encoding.fromHex(text)
  return bytes.ok ? Option.some(bytes.value) : Option.none()
}

const keyIdOf = (masterKey: Uint8Array): string =>
  Encoding.toBase64url(
    Uint8Array.from(createHmac("sha256", masterKey).update("payrail/key-custody/key-id").digest().subarray(0, 8))
  )

const encrypt = (key: Uint8Array, iv: Uint8Array, plaintext: Uint8Array, aad: Uint8Array): Uint8Array => {
  const cipher = createCipheriv("aes-256-gcm", key, iv).setAAD(aad)
  return Encoding.concat(iv, cipher.update(plaintext), cipher.final(), cipher.getAuthTag())
}

const decrypt = (key: Uint8Array, sealed: Uint8Array, aad: Uint8Array): Uint8Array | undefined => {
  if (sealed.length < IV_LENGTH + TAG_LENGTH) return undefined
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, sealed.subarray(0, IV_LENGTH))
      .setAAD(aad)
      .setAuthTag(sealed.subarray(sealed.length - TAG_LENGTH))
    return Encoding.concat(decipher.update(sealed.subarray(IV_LENGTH, sealed.length - TAG_LENGTH)), decipher.final())
  } catch {
    return undefined
  }
}

const additionalData = (keyId: string, purpose: Purpose) => Encoding.toUtf8(`${VERSION}.${keyId}.${purpose}`)

const unreadable = (reason: string) => Effect.fail(new SealedSecretUnreadable({ reason }))

/** The service over already parsed master keys (the first one seals). */
export const make = (masterKey: Uint8Array, retired: ReadonlyArray<Uint8Array> = []) =>
  Effect.map(Ids.Ids, (ids): KeyCustodyService => {
    const keyId = keyIdOf(masterKey)
    const keys = new Map<string, Uint8Array>()
    for (const key of [...retired].reverse()) keys.set(keyIdOf(key), key)
    keys.set(keyId, masterKey)

    const seal: KeyCustodyService["seal"] = (purpose, secret) =>
      Effect.map(ids.randomBytes(KEY_LENGTH + 2 * IV_LENGTH), (random) => {
        const dataKey = random.subarray(0, KEY_LENGTH)
        const aad = additionalData(keyId, purpose)
        const wrapped = encrypt(masterKey, random.subarray(KEY_LENGTH, KEY_LENGTH + IV_LENGTH), dataKey, aad)
        const ciphertext = encrypt(dataKey, random.subarray(KEY_LENGTH + IV_LENGTH), secret, aad)
        return [VERSION, keyId, Encoding.toBase64url(wrapped), Encoding.toBase64url(ciphertext)].join(".")
      })

    const open: KeyCustodyService["open"] = (purpose, sealed) =>
      Effect.suspend(() => {
        const parts = sealed.split(".")
        if (parts.length !== 4 || parts[0] !== VERSION) return unreadable(`not a ${VERSION} sealed secret`)
        const [, id = "", wrappedText = "", ciphertextText = ""] = parts
        const key = keys.get(id)
        if (key === undefined) return unreadable("sealed under a master key this service does not have")
        const wrapped = Encoding.fromBase64url(wrappedText)
        const ciphertext = Encoding.fromBase64url(ciphertextText)
        if (!wrapped.ok || !ciphertext.ok) return unreadable("a part is not base64url")
        const aad = additionalData(id, purpose)
        const dataKey = decrypt(key, wrapped.value, aad)
        if (dataKey === undefined || dataKey.length !== KEY_LENGTH) return unreadable("the data key does not unwrap")
        const secret = decrypt(dataKey, ciphertext.value, aad)
        return secret === undefined ? unreadable("the secret does not decrypt") : Effect.succeed(secret)
      })

    return { keyId, seal, open }
  })

/** The service with the given master keys; a key that is not 64 hex digits is a defect. */
export const layer = (options: Options): Layer.Layer<KeyCustody, never, Ids.Ids> =>
  Layer.effect(
    KeyCustody,
    Effect.suspend(() => {
      const keys = [options.masterKey, ...(options.retiredMasterKeys ?? [])].map(parseMasterKey)
      const parsed = Option.all(keys)
      return Option.match(parsed, {
        onNone: () => Effect.dieMessage("a wallet master key is not 32 bytes of hex"),
        onSome: ([current, ...retired]) =>
          current === undefined ? Effect.dieMessage("no wallet master key") : make(current, retired)
      })
    })
  )
