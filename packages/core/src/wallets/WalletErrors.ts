import { Schema } from "effect"
import { AuthMethod } from "../accounts/index.js"

/** A wallet action without its `Service-Wallet-Signature` header. Code `WALLET_SIGNATURE_MISSING` (401). */
export class WalletSignatureMissing extends Schema.TaggedError<WalletSignatureMissing>()("WalletSignatureMissing", {
  code: Schema.tag("WALLET_SIGNATURE_MISSING"),
  reason: Schema.String
}) {
  static of(): WalletSignatureMissing {
    return new WalletSignatureMissing({
      reason: "This wallet action needs a Service-Wallet-Signature header with a stamp over payloadToSign"
    })
  }
}

/** What part of a stamp could not be parsed. */
export const MalformedPart = Schema.Literal("base64url", "json", "scheme", "publicKey", "signature")
export type MalformedPart = typeof MalformedPart.Type

/** The wallet signature header could not be parsed. Code `WALLET_SIGNATURE_MALFORMED` (401), naming the part. */
export class WalletSignatureMalformed extends Schema.TaggedError<WalletSignatureMalformed>()(
  "WalletSignatureMalformed",
  {
    code: Schema.tag("WALLET_SIGNATURE_MALFORMED"),
    reason: Schema.String,
    details: Schema.Struct({ part: MalformedPart })
  }
) {
  static of(part: MalformedPart, reason: string): WalletSignatureMalformed {
    return new WalletSignatureMalformed({ reason: `The wallet signature is malformed: ${reason}`, details: { part } })
  }
}

/** The retry's body differs from the body its challenge was issued for. Code `WALLET_SIGNATURE_BODY_MISMATCH` (401). */
export class WalletSignatureBodyMismatch extends Schema.TaggedError<WalletSignatureBodyMismatch>()(
  "WalletSignatureBodyMismatch",
  { code: Schema.tag("WALLET_SIGNATURE_BODY_MISMATCH"), reason: Schema.String }
) {
  static of(): WalletSignatureBodyMismatch {
    return new WalletSignatureBodyMismatch({
      reason: "The signed retry must carry the same body as the request that issued its challenge"
    })
  }
}

/** Why a well-formed stamp does not authorise the payload. */
export const InvalidCheck = Schema.Literal("session_key", "signature")
export type InvalidCheck = typeof InvalidCheck.Type

/**
 * The stamp does not authorise the payload: its key is not a key allowed to sign it (`session_key`: no active
 * session of this wallet, or not the session this action needs), or the signature does not verify over the exact
 * `payloadToSign` bytes (`signature`). Code `WALLET_SIGNATURE_INVALID` (401).
 */
export class WalletSignatureInvalid extends Schema.TaggedError<WalletSignatureInvalid>()("WalletSignatureInvalid", {
  code: Schema.tag("WALLET_SIGNATURE_INVALID"),
  reason: Schema.String,
  details: Schema.Struct({ check: InvalidCheck })
}) {
  static of(check: InvalidCheck, reason: string): WalletSignatureInvalid {
    return new WalletSignatureInvalid({ reason, details: { check } })
  }
}

/** A signed retry (it carries a stamp) without its `Request-Id` header. Code `REQUEST_ID_MISSING` (401). */
export class RequestIdMissing extends Schema.TaggedError<RequestIdMissing>()("RequestIdMissing", {
  code: Schema.tag("REQUEST_ID_MISSING"),
  reason: Schema.String
}) {
  static of(): RequestIdMissing {
    return new RequestIdMissing({ reason: "A signed retry needs the challenge's requestId in the Request-Id header" })
  }
}

/** The `Request-Id` was consumed by an earlier retry. Code `REQUEST_ID_REUSED` (401): start the action again. */
export class RequestIdReused extends Schema.TaggedError<RequestIdReused>()("RequestIdReused", {
  code: Schema.tag("REQUEST_ID_REUSED"),
  reason: Schema.String,
  details: Schema.Struct({ requestId: Schema.String })
}) {
  static of(requestId: string): RequestIdReused {
    return new RequestIdReused({
      reason: "This requestId was already used; send the request without wallet headers for a new challenge",
      details: { requestId }
    })
  }
}

/** Why an authentication step failed: the rule it names. */
export const AuthCheck = Schema.Literal(
  "request_id_unknown",
  "request_expired",
  "request_for_other_action",
  "otp_code",
  "otp_bundle",
  "otp_challenge_missing",
  "otp_challenge_expired",
  "oidc_token",
  "oidc_issuer",
  "oidc_audience",
  "oidc_subject",
  "oidc_iat",
  "oidc_exp",
  "oidc_nonce",
  "oidc_signature",
  "passkey_challenge",
  "passkey_credential_id",
  "passkey_origin",
  "passkey_rp_id",
  "passkey_user_presence",
  "passkey_signature",
  "passkey_counter",
  "passkey_attestation",
  "session_inactive",
  "session_key_mismatch"
)
export type AuthCheck = typeof AuthCheck.Type

/**
 * An authentication step failed: a wrong or expired OTP, an OIDC token or passkey assertion that fails a check, an
 * unknown or expired signed request, an inactive session. Code `UNAUTHORIZED` (401), `details.check` naming the rule.
 */
export class WalletAuthFailed extends Schema.TaggedError<WalletAuthFailed>()("WalletAuthFailed", {
  code: Schema.tag("UNAUTHORIZED"),
  reason: Schema.String,
  details: Schema.Struct({ check: AuthCheck })
}) {
  static of(check: AuthCheck, reason: string): WalletAuthFailed {
    return new WalletAuthFailed({ reason, details: { check } })
  }
}

const duplicateCodes = {
  PASSKEY: "PASSKEY_CREDENTIAL_ALREADY_EXISTS",
  EMAIL_OTP: "EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS",
  SMS_OTP: "SMS_OTP_CREDENTIAL_ALREADY_EXISTS",
  OAUTH: "OAUTH_CREDENTIAL_ALREADY_EXISTS"
} as const

/**
 * The account already has this credential: a passkey whose credential id is registered, a second `EMAIL_OTP` or
 * `SMS_OTP`, or an `OAUTH` identity it has. Code `PASSKEY_CREDENTIAL_ALREADY_EXISTS`,
 * `EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS`, `SMS_OTP_CREDENTIAL_ALREADY_EXISTS` or `OAUTH_CREDENTIAL_ALREADY_EXISTS`
 * (400).
 */
export class CredentialAlreadyExists extends Schema.TaggedError<CredentialAlreadyExists>()("CredentialAlreadyExists", {
  code: Schema.Literal(...Object.values(duplicateCodes)),
  reason: Schema.String,
  details: Schema.Struct({ type: AuthMethod.AuthMethodType })
}) {
  static of(type: AuthMethod.AuthMethodType): CredentialAlreadyExists {
    return new CredentialAlreadyExists({
      code: duplicateCodes[type],
      reason:
        type === "PASSKEY"
          ? "This passkey credential id is already registered"
          : `The account already has this ${type} credential`,
      details: { type }
    })
  }
}

/** Revoking the wallet's only credential. Code `INVALID_INPUT` (400): at least one credential must remain. */
export class LastCredential extends Schema.TaggedError<LastCredential>()("LastCredential", {
  code: Schema.tag("INVALID_INPUT"),
  reason: Schema.String,
  details: Schema.Struct({ rule: Schema.Literal("last_credential") })
}) {
  static of(): LastCredential {
    return new LastCredential({
      reason: "An embedded wallet keeps at least one credential; add another before revoking this one",
      details: { rule: "last_credential" }
    })
  }
}

/** No credential with this id on the caller's platform. Code `NOT_FOUND` (404). */
export class AuthMethodNotFound extends Schema.TaggedError<AuthMethodNotFound>()("AuthMethodNotFound", {
  code: Schema.tag("NOT_FOUND"),
  reason: Schema.String,
  details: Schema.Struct({ credentialId: Schema.String })
}) {
  static of(credentialId: string): AuthMethodNotFound {
    return new AuthMethodNotFound({ reason: "Credential not found", details: { credentialId } })
  }
}

/** No active session with this id on the caller's platform (expired and revoked ones too). Code `NOT_FOUND` (404). */
export class AuthSessionNotFound extends Schema.TaggedError<AuthSessionNotFound>()("AuthSessionNotFound", {
  code: Schema.tag("NOT_FOUND"),
  reason: Schema.String,
  details: Schema.Struct({ sessionId: Schema.String })
}) {
  static of(sessionId: string): AuthSessionNotFound {
    return new AuthSessionNotFound({ reason: "Session not found, expired or revoked", details: { sessionId } })
  }
}

/**
 * A customer email change that would give this email to a second `EMAIL_OTP` credential on the platform: another
 * customer's wallet credential has it already. Code `EMAIL_OTP_EMAIL_ALREADY_EXISTS` (409); nothing changes.
 */
export class EmailOtpEmailAlreadyExists extends Schema.TaggedError<EmailOtpEmailAlreadyExists>()(
  "EmailOtpEmailAlreadyExists",
  { code: Schema.tag("EMAIL_OTP_EMAIL_ALREADY_EXISTS"), reason: Schema.String }
) {
  static of(): EmailOtpEmailAlreadyExists {
    return new EmailOtpEmailAlreadyExists({
      reason: "Another customer's EMAIL_OTP credential on this platform already uses this email"
    })
  }
}

/**
 * The customer's `EMAIL_OTP` credentials changed while its email change was being signed (one was revoked, or the
 * last one went). Code `EMAIL_OTP_CREDENTIAL_SET_CHANGED` (409); nothing changes: start the change again.
 */
export class EmailOtpCredentialSetChanged extends Schema.TaggedError<EmailOtpCredentialSetChanged>()(
  "EmailOtpCredentialSetChanged",
  { code: Schema.tag("EMAIL_OTP_CREDENTIAL_SET_CHANGED"), reason: Schema.String }
) {
  static of(): EmailOtpCredentialSetChanged {
    return new EmailOtpCredentialSetChanged({
      reason: "The customer's EMAIL_OTP credentials changed during the signed email change; send it again"
    })
  }
}
