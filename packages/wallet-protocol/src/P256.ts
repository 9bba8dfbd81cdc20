import { p256 } from "@noble/curves/nist.js"
import { fromHex, toHex } from "./Encoding.js"
import { err, ok, type Result } from "./Result.js"

/** Byte length of a P-256 private scalar. */
export const PRIVATE_KEY_LENGTH = 32
/** Byte length of a compressed SEC1 public key (`02`/`03` ‖ X). */
export const COMPRESSED_LENGTH = 33
/** Byte length of an uncompressed SEC1 public key (`04` ‖ X ‖ Y). */
export const UNCOMPRESSED_LENGTH = 65
/** Byte length of the seed {@link privateKeyFromSeed} reduces to a scalar (48 bytes keep the bias below 2^-128). */
export const SEED_LENGTH = 48

/**
 * A validated point on P-256 in both SEC1 encodings. Two `PublicKey`s are the same point exactly when their
 * `compressedHex` (or `uncompressedHex`) are equal, so string comparison of these fields is point comparison.
 */
export interface PublicKey {
  readonly compressed: Uint8Array
  readonly uncompressed: Uint8Array
  /** Lowercase hex of {@link compressed} (66 characters). */
  readonly compressedHex: string
  /** Lowercase hex of {@link uncompressed} (130 characters). */
  readonly uncompressedHex: string
}

/** A private scalar with its public key. */
export interface KeyPair {
  readonly privateKey: Uint8Array
  readonly publicKey: PublicKey
}

type Point = ReturnType<typeof p256.Point.fromBytes>

const fromPoint = (point: Point): PublicKey => {
  const compressed = point.toBytes(true)
  const uncompressed = point.toBytes(false)
  return { compressed, uncompressed, compressedHex: toHex(compressed), uncompressedHex: toHex(uncompressed) }
}

/** Key material given as bytes, or as hex in either case (`BadHex` otherwise). */
const bytesOf = (input: string | Uint8Array, field: string): Result<Uint8Array> =>
  typeof input === "string" ? fromHex(input, field) : ok(input)

/**
 * Parses a SEC1 public key, compressed (33 bytes) or uncompressed (65 bytes), given as bytes or as hex in either
 * case. Fails with `BadHex`, `WrongKeyLength` or `InvalidPublicKey` (bad prefix, or not a point on the curve).
 */
export const parsePublicKey = (input: string | Uint8Array, field = "publicKey"): Result<PublicKey> => {
  const decoded = bytesOf(input, field)
  if (!decoded.ok) return decoded
  const bytes = decoded.value
  if (bytes.length !== COMPRESSED_LENGTH && bytes.length !== UNCOMPRESSED_LENGTH) {
    return err("WrongKeyLength", `expected 33 or 65 bytes, got ${bytes.length}`, field)
  }
  const prefix = bytes[0]
  const prefixOk = bytes.length === COMPRESSED_LENGTH ? prefix === 2 || prefix === 3 : prefix === 4
  if (!prefixOk) return err("InvalidPublicKey", "unexpected SEC1 prefix for this length", field)
  try {
    return ok(fromPoint(p256.Point.fromBytes(bytes)))
  } catch {
    return err("InvalidPublicKey", "not a point on P-256", field)
  }
}

/**
 * Like {@link parsePublicKey} but additionally requires the uncompressed form, as HPKE targets
 * (`targetPublic`) and `enclaveQuorumPublic` must be. Fails with `WrongKeyLength` for a compressed key.
 */
export const parseUncompressedPublicKey = (input: string | Uint8Array, field = "publicKey"): Result<PublicKey> => {
  const length = typeof input === "string" ? input.length / 2 : input.length
  if (length !== UNCOMPRESSED_LENGTH) {
    return err("WrongKeyLength", `expected an uncompressed 65-byte key, got ${length} bytes`, field)
  }
  return parsePublicKey(input, field)
}

/**
 * Parses a 32-byte private scalar given as bytes or hex. Fails with `BadHex`, `WrongKeyLength`, or
 * `InvalidPrivateKey` when the scalar is zero or not below the group order.
 */
export const parsePrivateKey = (input: string | Uint8Array, field = "privateKey"): Result<Uint8Array> => {
  const decoded = bytesOf(input, field)
  if (!decoded.ok) return decoded
  const bytes = decoded.value
  if (bytes.length !== PRIVATE_KEY_LENGTH) {
    return err("WrongKeyLength", `expected 32 bytes, got ${bytes.length}`, field)
  }
  if (!p256.utils.isValidSecretKey(bytes)) return err("InvalidPrivateKey", "scalar out of range", field)
  return ok(Uint8Array.from(bytes))
}

/** The public key of a private scalar that {@link parsePrivateKey} accepted. */
export const publicKeyOf = (privateKey: Uint8Array): PublicKey =>
  fromPoint(p256.Point.fromBytes(p256.getPublicKey(privateKey, false)))

/**
 * Reduces a 48-byte uniformly random seed to a valid private scalar (FIPS 186-5 A.2.1 style), so callers that own
 * their randomness source (for example a deterministic one in tests) get keys from it. Throws on a wrong seed
 * length, a programming error.
 */
export const privateKeyFromSeed = (seed: Uint8Array): Uint8Array => p256.utils.randomSecretKey(seed)

/** Generates a key pair from the platform CSPRNG (`crypto.getRandomValues`). */
export const generateKeyPair = (): KeyPair => {
  const privateKey = p256.utils.randomSecretKey()
  return { privateKey, publicKey: publicKeyOf(privateKey) }
}

/**
 * Compresses an uncompressed SEC1 key without curve arithmetic (`02`/`03` by the parity of Y, then X). The input
 * must already be a valid 65-byte uncompressed key.
 */
export const compress = (uncompressed: Uint8Array): Uint8Array => {
  const out = new Uint8Array(COMPRESSED_LENGTH)
  out[0] = ((uncompressed[64] as number) & 1) === 1 ? 3 : 2
  out.set(uncompressed.subarray(1, 33), 1)
  return out
}

/** True when both keys are the same curve point, whatever their encodings. */
export const equals = (a: PublicKey, b: PublicKey): boolean => a.compressedHex === b.compressedHex

/**
 * True when the SEC1 hex text `candidate` (either form, either case) encodes the point `key`. Costs a string
 * comparison, no curve arithmetic, which makes it the right check on a hot path against a registered key.
 */
export const matchesHex = (key: PublicKey, candidate: string): boolean => {
  const lower = candidate.toLowerCase()
  return lower === key.compressedHex || lower === key.uncompressedHex
}
