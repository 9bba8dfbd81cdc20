/**
 * What can be wrong with wallet-protocol input. Each code names one kind of defect, so callers can map it to their
 * own error (for example an HTTP 401 `WALLET_SIGNATURE_MALFORMED`) without parsing messages.
 *
 * - `BadHex`: not an even-length string of hexadecimal digits.
 * - `BadBase64url`: not RFC 4648 §5 base64url (`-_` alphabet, optional `=` padding, zero trailing bits).
 * - `BadBase58`: a character outside the Bitcoin base58 alphabet, or a text longer than 4096 characters.
 * - `BadChecksum`: the base58check checksum does not match the payload.
 * - `BadUtf8`: bytes that are not well-formed UTF-8.
 * - `BadJson`: text that is not JSON, or JSON that is not an object.
 * - `BadField`: a required field is missing or has the wrong type or value.
 * - `WrongKeyLength`: a key (or key-sized value) has the wrong number of bytes.
 * - `InvalidPublicKey`: bytes of the right length that are not a point on P-256.
 * - `InvalidPrivateKey`: a scalar that is zero or not below the curve order.
 * - `TruncatedDer`: a DER signature that ends before its declared length.
 * - `BadDer`: a DER signature that is not `SEQUENCE{INTEGER r, INTEGER s}` in canonical form.
 * - `WrongScheme`: a stamp whose `scheme` is not `SIGNATURE_SCHEME_TK_API_P256`.
 * - `UnsupportedVersion`: a signed bundle whose `version` is not `v1.0.0`.
 * - `AeadFailure`: HPKE decryption failed (wrong key, wrong AAD, or tampered ciphertext or tag).
 * - `BadSignature`: an ECDSA signature that does not verify.
 * - `KeyMismatch`: a signature made by a key other than the expected one.
 * - `SignerMismatch`: a signed bundle whose signer is not the expected signer key.
 * - `ChallengeExpired`: a signed-retry challenge whose `expiresAt` has passed.
 * - `BadTimestamp`: a timestamp that is not an ISO 8601 date-time.
 */
export type WalletProtocolErrorCode =
  | "BadHex"
  | "BadBase64url"
  | "BadBase58"
  | "BadChecksum"
  | "BadUtf8"
  | "BadJson"
  | "BadField"
  | "WrongKeyLength"
  | "InvalidPublicKey"
  | "InvalidPrivateKey"
  | "TruncatedDer"
  | "BadDer"
  | "WrongScheme"
  | "UnsupportedVersion"
  | "AeadFailure"
  | "BadSignature"
  | "KeyMismatch"
  | "SignerMismatch"
  | "ChallengeExpired"
  | "BadTimestamp"

/**
 * The one error type of `@payrail/wallet-protocol`. It is an `Error` (so it can be thrown by the thin throwing
 * helpers and by `@payrail/signer`), discriminated by `code`; `field` names the input part at fault when there is one
 * (`"publicKey"`, `"signature"`, `"encappedPublic"`, …). Messages never contain key material.
 */
export class WalletProtocolError extends Error {
  readonly _tag = "WalletProtocolError" as const
  readonly code: WalletProtocolErrorCode
  readonly field: string | undefined

  constructor(code: WalletProtocolErrorCode, message: string, field?: string) {
    super(field === undefined ? `${code}: ${message}` : `${code} (${field}): ${message}`)
    this.name = "WalletProtocolError"
    this.code = code
    this.field = field
  }
}

/** True when `u` is a {@link WalletProtocolError}, optionally with the given `code`. */
export const isWalletProtocolError = (u: unknown, code?: WalletProtocolErrorCode): u is WalletProtocolError =>
  u instanceof WalletProtocolError && (code === undefined || u.code === code)
