import { Option, Schema } from "effect"
import { AuthMethod, SchemaClass, SignedRequest, type SignedRetry, WalletErrors } from "@payrail/core"
import { wire } from "./ErrorBody.js"

// The contract every signed-retry endpoint shares, whatever its context (wallets, customers, quotes): the wallet
// headers, the 202 challenge bodies, the 200 "still processing" body and the 401 refusals.

/** The documented wallet signature header (HTTP header names are case-insensitive). */
export const signatureHeader = "service-wallet-signature"

/** Grid's name for the same header, accepted as an alias and not documented; the documented name wins when both come. */
export const signatureAliasHeader = "grid-wallet-signature"

/** The header carrying a signed retry's `requestId`. */
export const requestIdHeader = "request-id"

/**
 * The wallet headers an endpoint with a signed retry declares: both optional (a first leg carries neither). Their
 * values are not constrained here: an unparseable stamp or id is a 401 of the signed retry, not a 400.
 */
export const WalletRequestHeaders = Schema.Struct({
  [signatureHeader]: Schema.optional(
    Schema.String.annotations({
      description:
        "On a signed retry: the stamp over the challenge's `payloadToSign` by an active session's key " +
        "(base64url JSON `{publicKey, scheme, signature}`). `Grid-Wallet-Signature` is accepted as an alias."
    })
  ),
  [requestIdHeader]: Schema.optional(
    Schema.String.annotations({ description: "On a signed retry: the challenge's `requestId`" })
  )
})
export type WalletRequestHeaders = typeof WalletRequestHeaders.Type

/**
 * Core's `WalletHeaders` from the decoded headers and the raw request headers (for the `Grid-Wallet-Signature`
 * alias): each header `Option.some` when present, even empty (an empty stamp is malformed, not missing).
 */
export const toWalletHeaders = (
  declared: WalletRequestHeaders,
  raw: Readonly<Record<string, string | undefined>>
): SignedRetry.WalletHeaders => ({
  signature: Option.fromNullable(declared[signatureHeader] ?? raw[signatureAliasHeader]),
  requestId: Option.fromNullable(declared[requestIdHeader])
})

const challengeFields = {
  payloadToSign: Schema.String.annotations({ description: "Stamp these exact bytes (UTF-8), unchanged" }),
  requestId: SignedRequest.SignedRequestId.annotations({ description: "Send it back in the `Request-Id` header" }),
  expiresAt: Schema.DateTimeUtc
}

/**
 * 202 of a signed retry's first leg naming the credential type (credential add and revoke, OTP verify, session
 * revoke): `{type, payloadToSign, requestId, expiresAt}`.
 */
export class AuthSignedRequestChallenge extends SchemaClass.Class<AuthSignedRequestChallenge>(
  "AuthSignedRequestChallenge"
)({ type: AuthMethod.AuthMethodType, ...challengeFields }, { identifier: "AuthSignedRequestChallenge" }) {}

/** 202 of a signed retry's first leg without a credential type (session refresh, wallet export). */
export class SignedRequestChallenge extends SchemaClass.Class<SignedRequestChallenge>("SignedRequestChallenge")(
  challengeFields,
  { identifier: "SignedRequestChallenge" }
) {}

/**
 * 200 `{status: "PROCESSING", message}`: the operation was accepted but has not settled; re-send the identical
 * request. Declared where the spec lists it; Payrail settles every wallet operation before answering, so no
 * operation returns it yet.
 */
export class WalletOperationProcessing extends SchemaClass.Class<WalletOperationProcessing>(
  "WalletOperationProcessing"
)({ status: Schema.Literal("PROCESSING"), message: Schema.String }, { identifier: "WalletOperationProcessing" }) {}

/**
 * The challenge body of a stored request, with its `type`. A request issued without one (never for these
 * operations) dies: the contract names the type on every credential and session-revoke challenge.
 */
export const typedChallenge = (request: SignedRequest.SignedRequest): AuthSignedRequestChallenge => {
  if (request.type === undefined) throw new Error(`challenge ${request.operation} without a credential type`)
  return new AuthSignedRequestChallenge({
    type: request.type,
    payloadToSign: request.payloadToSign,
    requestId: request.id,
    expiresAt: request.expiresAt
  })
}

/** The challenge body of a stored request, without `type` (refresh, export). */
export const untypedChallenge = (request: SignedRequest.SignedRequest): SignedRequestChallenge =>
  new SignedRequestChallenge({
    payloadToSign: request.payloadToSign,
    requestId: request.id,
    expiresAt: request.expiresAt
  })

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
