import { Schema } from "effect"
import { OtpDelivery, WalletErrors } from "@payrail/core"
import { ErrorBody } from "../kernel/index.js"

const { wire } = ErrorBody

/** 401 `WALLET_SIGNATURE_MISSING`: a signed retry without `Service-Wallet-Signature`. */
export const WalletSignatureMissingBody = wire(
  WalletErrors.WalletSignatureMissing,
  401,
  "The signed retry has no Service-Wallet-Signature header"
)
/** 401 `WALLET_SIGNATURE_MALFORMED`, `details.part` naming what could not be parsed. */
export const WalletSignatureMalformedBody = wire(
  WalletErrors.WalletSignatureMalformed,
  401,
  "The wallet signature could not be parsed"
)
/** 401 `WALLET_SIGNATURE_BODY_MISMATCH`: the retry's body differs from its first leg's. */
export const WalletSignatureBodyMismatchBody = wire(
  WalletErrors.WalletSignatureBodyMismatch,
  401,
  "The signed retry's body differs from the body the challenge was issued for"
)
/** 401 `WALLET_SIGNATURE_INVALID`, `details.check`: `session_key` or `signature`. */
export const WalletSignatureInvalidBody = wire(
  WalletErrors.WalletSignatureInvalid,
  401,
  "The wallet signature is not by an allowed session key, or does not verify over payloadToSign"
)
/** 401 `REQUEST_ID_MISSING`: a stamp without `Request-Id`. */
export const RequestIdMissingBody = wire(
  WalletErrors.RequestIdMissing,
  401,
  "The signed retry has no Request-Id header"
)
/** 401 `REQUEST_ID_REUSED`: the `Request-Id` was used by an earlier retry. */
export const RequestIdReusedBody = wire(
  WalletErrors.RequestIdReused,
  401,
  "The Request-Id was already used; start the action again"
)
/** 401 `UNAUTHORIZED`, `details.check` naming the failed rule (OTP code, OIDC claim, passkey check, expiry…). */
export const WalletAuthFailedBody = wire(
  WalletErrors.WalletAuthFailed,
  401,
  "A wallet authentication check failed (details.check names it)"
)
/** 400 `*_CREDENTIAL_ALREADY_EXISTS`. */
export const CredentialAlreadyExistsBody = wire(
  WalletErrors.CredentialAlreadyExists,
  400,
  "The account already has this credential"
)
/** 400 `INVALID_INPUT` with `details.rule: "last_credential"`. */
export const LastCredentialBody = wire(
  WalletErrors.LastCredential,
  400,
  "The wallet's only credential cannot be revoked"
)
/** 404 `NOT_FOUND`: no such credential. */
export const AuthMethodNotFoundBody = wire(WalletErrors.AuthMethodNotFound, 404, "No such credential")
/** 404 `NOT_FOUND`: no such active session. */
export const AuthSessionNotFoundBody = wire(
  WalletErrors.AuthSessionNotFound,
  404,
  "No such session, or it expired or was revoked"
)
/** 500 `INTERNAL_ERROR`: the one-time code could not be sent. */
export const OtpDeliveryFailedBody = wire(OtpDelivery.OtpDeliveryFailed, 500, "The one-time code could not be sent")

/** 409 `EMAIL_OTP_EMAIL_ALREADY_EXISTS`: another customer's `EMAIL_OTP` credential on the platform has the email. */
export const EmailOtpEmailAlreadyExistsBody = wire(
  WalletErrors.EmailOtpEmailAlreadyExists,
  409,
  "Another customer's EMAIL_OTP credential already uses this email"
)
/** 409 `EMAIL_OTP_CREDENTIAL_SET_CHANGED`: the customer's `EMAIL_OTP` credentials changed during the signed change. */
export const EmailOtpCredentialSetChangedBody = wire(
  WalletErrors.EmailOtpCredentialSetChanged,
  409,
  "The customer's EMAIL_OTP credentials changed during the signed email change; nothing changed"
)

/** The 401s of a signed retry, each with its own code (each listed in the document). */
export const SignedRetryRefusedBody = Schema.Union(
  WalletSignatureMissingBody,
  WalletSignatureMalformedBody,
  WalletSignatureBodyMismatchBody,
  WalletSignatureInvalidBody,
  RequestIdMissingBody,
  RequestIdReusedBody,
  WalletAuthFailedBody
)
