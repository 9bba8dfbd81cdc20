import { fromBase64url, fromHex, fromUtf8, toBase64url, toHex, toUtf8 } from "./Encoding.js"
import { parseJsonObject, stringField } from "./internal/json.js"
import * as P256 from "./P256.js"
import { err, ok, type Result } from "./Result.js"
import * as Signature from "./Signature.js"

/** The only stamp scheme: ECDSA P-256 over SHA-256 of the payload, DER signature. */
export const SCHEME = "SIGNATURE_SCHEME_TK_API_P256"

/**
 * The JSON inside a wallet signature stamp (the `Service-Wallet-Signature` header value), in wire key order.
 * `publicKey` is SEC1 hex as the signer supplied it; `signature` is DER hex.
 */
export interface Stamp {
  readonly publicKey: string
  readonly scheme: typeof SCHEME
  readonly signature: string
}

/**
 * A stamp that passed {@link decode}: the JSON fields plus the public key bytes (33 or 65 bytes with a valid SEC1
 * prefix, not yet checked to be on the curve) and the strictly decoded DER signature.
 */
export interface DecodedStamp {
  readonly stamp: Stamp
  readonly publicKey: Uint8Array
  readonly signature: Signature.DerSignature
}

/** The bytes a stamp signs: a string payload as its exact UTF-8 bytes, a byte payload unchanged. */
export const payloadBytes = (payload: string | Uint8Array): Uint8Array =>
  typeof payload === "string" ? toUtf8(payload) : payload

/**
 * Encodes a stamp as the header value: base64url without padding of the UTF-8 JSON
 * `{"publicKey":…,"scheme":…,"signature":…}` with exactly that key order and no whitespace.
 */
export const encode = (stamp: Stamp): string =>
  toBase64url(toUtf8(JSON.stringify({ publicKey: stamp.publicKey, scheme: stamp.scheme, signature: stamp.signature })))

/**
 * Decodes a header value without any curve arithmetic, so it is cheap enough for a server's hot path. Fails with
 * `BadBase64url`, `BadUtf8`, `BadJson`, `BadField`, `WrongScheme`, `BadHex`, `WrongKeyLength`, `InvalidPublicKey`
 * (bad SEC1 prefix), `TruncatedDer` or `BadDer`. JSON key order and extra fields are not significant.
 */
export const decode = (value: string): Result<DecodedStamp> => {
  const bytes = fromBase64url(value, "stamp")
  if (!bytes.ok) return bytes
  const text = fromUtf8(bytes.value, "stamp")
  if (!text.ok) return text
  const json = parseJsonObject(text.value, "stamp")
  if (!json.ok) return json
  const scheme = stringField(json.value, "scheme")
  if (!scheme.ok) return scheme
  if (scheme.value !== SCHEME) return err("WrongScheme", `unsupported scheme "${scheme.value}"`, "scheme")
  const publicKeyHex = stringField(json.value, "publicKey")
  if (!publicKeyHex.ok) return publicKeyHex
  const publicKey = fromHex(publicKeyHex.value, "publicKey")
  if (!publicKey.ok) return publicKey
  const length = publicKey.value.length
  if (length !== P256.COMPRESSED_LENGTH && length !== P256.UNCOMPRESSED_LENGTH) {
    return err("WrongKeyLength", `expected 33 or 65 bytes, got ${length}`, "publicKey")
  }
  const prefix = publicKey.value[0]
  if (length === P256.COMPRESSED_LENGTH ? prefix !== 2 && prefix !== 3 : prefix !== 4) {
    return err("InvalidPublicKey", "unexpected SEC1 prefix for this length", "publicKey")
  }
  const signatureHex = stringField(json.value, "signature")
  if (!signatureHex.ok) return signatureHex
  const signature = Signature.decodeDerHex(signatureHex.value, "signature")
  if (!signature.ok) return signature
  return ok({
    stamp: { publicKey: publicKeyHex.value, scheme: SCHEME, signature: signatureHex.value },
    publicKey: publicKey.value,
    signature: signature.value
  })
}

/**
 * Stamps `payload` with a private key (bytes or hex): signs SHA-256 of the payload bytes and embeds the compressed
 * lowercase public key derived from the private key. Deterministic (RFC 6979, no low-S normalisation), so it is
 * byte-identical to Turnkey's `purejs` stamper. Fails only on an invalid private key.
 */
export const create = (options: {
  readonly payload: string | Uint8Array
  readonly privateKey: string | Uint8Array
}): Result<string> => {
  const privateKey = P256.parsePrivateKey(options.privateKey)
  if (!privateKey.ok) return privateKey
  const publicKey = P256.publicKeyOf(privateKey.value)
  const signature = Signature.sign(payloadBytes(options.payload), privateKey.value)
  return ok(encode({ publicKey: publicKey.compressedHex, scheme: SCHEME, signature: toHex(signature) }))
}

/**
 * Verifies a stamp in pure JavaScript (for clients and tests; servers use `@payrail/wallet-auth`): decodes it, checks
 * that its key is a curve point, that it equals `publicKey` as a point when one is given (`KeyMismatch` otherwise),
 * and that the signature over the exact payload bytes verifies with high-S allowed (`BadSignature` otherwise).
 */
export const verify = (options: {
  readonly stamp: string
  readonly payload: string | Uint8Array
  readonly publicKey?: P256.PublicKey
}): Result<DecodedStamp> => {
  const decoded = decode(options.stamp)
  if (!decoded.ok) return decoded
  const stampKey = P256.parsePublicKey(decoded.value.publicKey)
  if (!stampKey.ok) return stampKey
  if (options.publicKey !== undefined && !P256.equals(stampKey.value, options.publicKey)) {
    return err("KeyMismatch", "the stamp was made with another key", "publicKey")
  }
  if (!Signature.verify(decoded.value.signature, payloadBytes(options.payload), stampKey.value)) {
    return err("BadSignature", "signature does not verify over the payload", "signature")
  }
  return decoded
}
