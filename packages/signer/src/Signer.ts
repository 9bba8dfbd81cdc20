import {
  CredentialBundle,
  Encoding,
  ExportBundle,
  OtpBundle,
  P256,
  Result,
  SignedRetry,
  Stamp,
  TargetBundle,
  WalletProtocolError as ProtocolError
} from "@payrail/wallet-protocol"

/**
 * The error every function of this module throws (or rejects with) on bad input: a `WalletProtocolError` whose
 * `code` names the defect (`BadHex`, `WrongKeyLength`, `BadSignature`, `SignerMismatch`, `AeadFailure`,
 * `ChallengeExpired`, …) and whose `field` names the input at fault. Test with `instanceof SignerError`.
 */
export const SignerError = ProtocolError.WalletProtocolError
/** The instance type of {@link SignerError}. */
export type SignerError = ProtocolError.WalletProtocolError

/** A P-256 key pair as lowercase hex: the 32-byte private scalar and the public key in both SEC1 forms. */
export interface KeyPair {
  readonly privateKey: string
  /** `02`/`03` ‖ X, 66 hex characters: the form stamps carry and the API documents. */
  readonly publicKeyCompressed: string
  /** `04` ‖ X ‖ Y, 130 hex characters: the form HPKE recipients (`clientPublicKey` of the sealed-key flow) use. */
  readonly publicKeyUncompressed: string
}

/** The body of a 202 signed-retry challenge: `payloadToSign`, `requestId`, `expiresAt` and, on some, `type`. */
export type SignedRetryChallenge = SignedRetry.Challenge

/** The two headers of a signed retry, ready to merge into a request's headers. */
export interface SignedRetryHeaders {
  readonly "Service-Wallet-Signature": string
  readonly "Request-Id": string
}

const toKeyPair = (keyPair: P256.KeyPair): KeyPair => ({
  privateKey: Encoding.toHex(keyPair.privateKey),
  publicKeyCompressed: keyPair.publicKey.compressedHex,
  publicKeyUncompressed: keyPair.publicKey.uncompressedHex
})

/**
 * Generates a P-256 key pair from the platform CSPRNG (`crypto.getRandomValues`). Nothing is sent anywhere: the
 * caller keeps the private key in memory and decides where it goes.
 */
export const generateKeyPair = (): KeyPair => toKeyPair(P256.generateKeyPair())

/**
 * Encrypts an OTP code for the server: reads `targetPublic` from `otpEncryptionTargetBundle` and HPKE-encrypts
 * `{"otp_code","public_key"}` to it, returning the `encryptedOtpBundle` string to send as is. `publicKey` is the
 * TEK public key (hex, either form; its private key later signs the retry). When `signerPublicKey` is given the
 * bundle must be signed by that key (compared as a point) or this rejects with `SignerMismatch`/`BadSignature`;
 * without it the bundle is trusted as received, as the Grid helper does.
 */
export const encryptOtpBundle = async (options: {
  readonly otpEncryptionTargetBundle: string
  readonly otpCode: string
  readonly publicKey: string
  readonly signerPublicKey?: string
}): Promise<string> => {
  let data: { readonly data: Uint8Array }
  if (options.signerPublicKey === undefined) {
    data = Result.getOrThrow(TargetBundle.readData(options.otpEncryptionTargetBundle))
  } else {
    const signerPublicKey = Result.getOrThrow(P256.parsePublicKey(options.signerPublicKey, "signerPublicKey"))
    data = Result.getOrThrow(TargetBundle.verify({ bundle: options.otpEncryptionTargetBundle, signerPublicKey }))
  }
  const targetPublicKey = Result.getOrThrow(TargetBundle.targetPublicKey(data))
  return Result.getOrThrow(
    await OtpBundle.seal({ targetPublicKey, otpCode: options.otpCode, publicKey: options.publicKey })
  )
}

/**
 * Opens an `encryptedSessionSigningKey` (the base58check credential bundle of a passkey or OAuth session) with the
 * client private key whose public key was sent as `clientPublicKey`, and returns the session key pair. Rejects with
 * `AeadFailure` when the bundle was sealed to another key or altered.
 */
export const openSessionKeyBundle = async (options: {
  readonly encryptedSessionSigningKey: string
  readonly privateKey: string
}): Promise<KeyPair> => {
  const recipient = Result.getOrThrow(P256.parsePrivateKey(options.privateKey))
  return toKeyPair(
    Result.getOrThrow(await CredentialBundle.openSessionKey({ bundle: options.encryptedSessionSigningKey, recipient }))
  )
}

/**
 * Opens a wallet export (`encryptedWalletCredentials`, the signed export bundle) with the private key whose public
 * key was sent as `clientPublicKey`, and returns the wallet's secret: its BIP-39 mnemonic as text. When
 * `signerPublicKey` is given (the service's signer key, uncompressed hex) the bundle must be signed by it or this
 * rejects with `SignerMismatch`/`BadSignature`; without it a signed bundle is only checked for integrity. With
 * `organizationId` the bundle must name it (`BadField`). Rejects with `AeadFailure` when the bundle was sealed to
 * another key or altered.
 */
export const openExportBundle = async (options: {
  readonly exportBundle: string
  readonly privateKey: string
  readonly signerPublicKey?: string
  readonly organizationId?: string
}): Promise<string> => {
  const recipient = Result.getOrThrow(P256.parsePrivateKey(options.privateKey))
  const signerPublicKey =
    options.signerPublicKey === undefined
      ? undefined
      : Result.getOrThrow(P256.parsePublicKey(options.signerPublicKey, "signerPublicKey"))
  const plaintext = Result.getOrThrow(
    await ExportBundle.open({
      bundle: options.exportBundle,
      recipient,
      ...(signerPublicKey === undefined ? {} : { signerPublicKey }),
      ...(options.organizationId === undefined ? {} : { organizationId: options.organizationId })
    })
  )
  return Result.getOrThrow(Encoding.fromUtf8(plaintext, "mnemonic"))
}

/**
 * Stamps `payloadToSign` byte for byte (its UTF-8 bytes, never re-serialised) with a session private key and returns
 * the `Service-Wallet-Signature` header value. Deterministic for a given key and payload.
 */
export const stamp = (options: { readonly payloadToSign: string; readonly privateKey: string }): string =>
  Result.getOrThrow(Stamp.create({ payload: options.payloadToSign, privateKey: options.privateKey }))

/**
 * Turns the body of a 202 signed-retry challenge (the parsed object or its JSON text) into the two headers of the
 * retry. Throws `ChallengeExpired` when `expiresAt` is not after `now` (default: the device clock), so an app can
 * restart the operation instead of sending a retry the server must refuse; `BadField`/`BadTimestamp` for a
 * malformed challenge.
 */
export const signRetry = (options: {
  readonly challenge: SignedRetryChallenge | string
  readonly privateKey: string
  readonly now?: Date | number
}): SignedRetryHeaders => {
  // eslint-disable-next-line no-restricted-properties -- device-side code has no Effect Clock; callers may pass `now`
  const now = options.now === undefined ? Date.now() : Number(options.now)
  const challenge = Result.getOrThrow(
    Result.flatMap(SignedRetry.decodeChallenge(options.challenge), (decoded) => SignedRetry.ensureOpen(decoded, now))
  )
  return {
    [SignedRetry.SIGNATURE_HEADER]: stamp({ payloadToSign: challenge.payloadToSign, privateKey: options.privateKey }),
    [SignedRetry.REQUEST_ID_HEADER]: challenge.requestId
  }
}
