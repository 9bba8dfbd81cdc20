import { Schema } from "effect"
import {
  AuthMethod,
  AuthSession,
  InternalAccount,
  type Logins,
  type SessionGrants,
  type SignedRequest,
  SignedRequest as SignedRequests,
  type WalletExports
} from "@payrail/core"

/**
 * A credential as the API shows it: `{id, accountId, type, credentialId?, nickname, createdAt, updatedAt,
 * otpEncryptionTargetBundle?}`. The passkey's stored key and the OAuth identity are never part of it;
 * `otpEncryptionTargetBundle` is set only on the answer of an OTP credential's `challenge`.
 */
export class AuthMethodView extends Schema.Class<AuthMethodView>("AuthMethodView")(
  {
    id: AuthMethod.AuthMethodId,
    accountId: InternalAccount.InternalAccountId,
    type: AuthMethod.AuthMethodType,
    credentialId: Schema.optional(Schema.String),
    nickname: Schema.String,
    createdAt: Schema.DateTimeUtc,
    updatedAt: Schema.DateTimeUtc,
    otpEncryptionTargetBundle: Schema.optional(
      Schema.String.annotations({
        description: "JSON text `{version, data, dataSignature, enclaveQuorumPublic}`: seal the code and TEK to it"
      })
    )
  },
  { identifier: "AuthMethod" }
) {}

/**
 * A session as the API shows it: `{id, accountId, type, nickname, createdAt, updatedAt, expiresAt,
 * encryptedSessionSigningKey?}`. Its key is never shown; `encryptedSessionSigningKey` only on the answer that created
 * the session in the legacy (uncompressed `clientPublicKey`) flow, never in a list.
 */
export class AuthSessionView extends Schema.Class<AuthSessionView>("AuthSessionView")(
  {
    id: AuthSession.AuthSessionId,
    accountId: InternalAccount.InternalAccountId,
    type: AuthMethod.AuthMethodType,
    nickname: Schema.String,
    createdAt: Schema.DateTimeUtc,
    updatedAt: Schema.DateTimeUtc,
    expiresAt: Schema.DateTimeUtc,
    encryptedSessionSigningKey: Schema.optional(Schema.String)
  },
  { identifier: "AuthSession" }
) {}

const challengeFields = {
  payloadToSign: Schema.String.annotations({ description: "Stamp these exact bytes (UTF-8), unchanged" }),
  requestId: SignedRequests.SignedRequestId.annotations({ description: "Send it back in the `Request-Id` header" }),
  expiresAt: Schema.DateTimeUtc
}

/**
 * 202 of a signed retry's first leg naming the credential type (credential add and revoke, OTP verify, session
 * revoke): `{type, payloadToSign, requestId, expiresAt}`.
 */
export class AuthSignedRequestChallenge extends Schema.Class<AuthSignedRequestChallenge>("AuthSignedRequestChallenge")(
  { type: AuthMethod.AuthMethodType, ...challengeFields },
  { identifier: "AuthSignedRequestChallenge" }
) {}

/** 202 of a signed retry's first leg without a credential type (session refresh, wallet export). */
export class SignedRequestChallenge extends Schema.Class<SignedRequestChallenge>("SignedRequestChallenge")(
  challengeFields,
  { identifier: "SignedRequestChallenge" }
) {}

/** 200 of a passkey's `challenge`: the WebAuthn challenge (lowercase hex, used as UTF-8 bytes), single use. */
export class PasskeyAuthChallenge extends Schema.Class<PasskeyAuthChallenge>("PasskeyAuthChallenge")(
  {
    challenge: Schema.String,
    requestId: SignedRequests.SignedRequestId,
    expiresAt: Schema.DateTimeUtc
  },
  { identifier: "PasskeyAuthChallenge" }
) {}

/**
 * 200 `{status: "PROCESSING", message}`: the operation was accepted but has not settled; re-send the identical
 * request. Declared where the spec lists it; Payrail settles every wallet operation before answering, so no
 * operation returns it yet.
 */
export class WalletOperationProcessing extends Schema.Class<WalletOperationProcessing>("WalletOperationProcessing")(
  { status: Schema.Literal("PROCESSING"), message: Schema.String },
  { identifier: "WalletOperationProcessing" }
) {}

/** 200 of an export's signed retry: the wallet's secret sealed to the request's `clientPublicKey`. */
export class ExportedWalletView extends Schema.Class<ExportedWalletView>("ExportedWalletView")(
  {
    id: InternalAccount.InternalAccountId,
    encryptedWalletCredentials: Schema.String.annotations({
      description: "JSON text `{version, data, dataSignature, enclaveQuorumPublic}` (an HPKE export bundle)"
    })
  },
  { identifier: "ExportedWallet" }
) {}

/** `{data: AuthMethod[]}`, not paginated. */
export const AuthMethodList = Schema.Struct({ data: Schema.Array(AuthMethodView) }).annotations({
  identifier: "AuthMethodListResponse"
})

/** `{data: AuthSession[]}`, not paginated; never with `encryptedSessionSigningKey`. */
export const AuthSessionList = Schema.Struct({ data: Schema.Array(AuthSessionView) }).annotations({
  identifier: "AuthSessionListResponse"
})

/** The wire view of a stored credential (without `passkey` and `oauth`). */
export const authMethodView = (method: AuthMethod.AuthMethod, otpEncryptionTargetBundle?: string): AuthMethodView =>
  new AuthMethodView({
    id: method.id,
    accountId: method.accountId,
    type: method.type,
    ...(method.credentialId === undefined ? {} : { credentialId: method.credentialId }),
    nickname: method.nickname,
    createdAt: method.createdAt,
    updatedAt: method.updatedAt,
    ...(otpEncryptionTargetBundle === undefined ? {} : { otpEncryptionTargetBundle })
  })

/** The wire view of a session (without its key), with the sealed signing key when one was generated. */
export const authSessionView = (session: AuthSession.AuthSession, encryptedSessionSigningKey?: string) =>
  new AuthSessionView({
    id: session.id,
    accountId: session.accountId,
    type: session.type,
    nickname: session.nickname,
    createdAt: session.createdAt,
    updatedAt: session.updatedAt,
    expiresAt: session.expiresAt,
    ...(encryptedSessionSigningKey === undefined ? {} : { encryptedSessionSigningKey })
  })

/** The wire view of a newly granted session, `encryptedSessionSigningKey` included when the grant has one. */
export const grantView = (grant: SessionGrants.Grant): AuthSessionView =>
  authSessionView(grant.session, grant.encryptedSessionSigningKey)

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

/** The answer of `challenge`: the OTP credential with its target bundle, or the passkey's WebAuthn challenge. */
export const loginChallengeView = (challenge: Logins.LoginChallenge): AuthMethodView | PasskeyAuthChallenge =>
  challenge._tag === "Otp"
    ? authMethodView(challenge.method, challenge.otpEncryptionTargetBundle)
    : new PasskeyAuthChallenge({
        challenge: challenge.request.payloadToSign,
        requestId: challenge.request.id,
        expiresAt: challenge.request.expiresAt
      })

/** The wire view of an export. */
export const exportedWalletView = (exported: WalletExports.ExportedWallet): ExportedWalletView =>
  new ExportedWalletView({ id: exported.id, encryptedWalletCredentials: exported.encryptedWalletCredentials })
