import { OtpDelivery, WalletErrors } from "@payrail/core"
import { ErrorBody } from "../kernel/index.js"

const { wire } = ErrorBody

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
