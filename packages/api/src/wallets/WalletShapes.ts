import { Schema } from "effect"
import {
  AuthMethod,
  AuthSession,
  InternalAccount,
  type Logins,
  SchemaClass,
  type SessionGrants,
  SignedRequest as SignedRequests,
  type WalletExports
} from "@payrail/core"

/**
 * A credential as the API shows it: `{id, accountId, type, credentialId?, nickname, createdAt, updatedAt,
 * otpEncryptionTargetBundle?}`. The passkey's stored key and the OAuth identity are never part of it;
 * `otpEncryptionTargetBundle` is set only on the answer of an OTP credential's `challenge`.
 */
export class AuthMethodView extends SchemaClass.Class<AuthMethodView>("AuthMethodView")(
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
 * A session as the API shows it: `{id, accountId, type, credentialId?, nickname, createdAt, updatedAt, expiresAt,
 * encryptedSessionSigningKey?}` (`credentialId`: the issuing credential's, a passkey's WebAuthn credential id). Its key
 * is never shown; `encryptedSessionSigningKey` only on the answer that created the session in the legacy (uncompressed
 * `clientPublicKey`) flow, never in a list.
 */
export class AuthSessionView extends SchemaClass.Class<AuthSessionView>("AuthSessionView")(
  {
    id: AuthSession.AuthSessionId,
    accountId: InternalAccount.InternalAccountId,
    type: AuthMethod.AuthMethodType,
    credentialId: Schema.optional(Schema.String),
    nickname: Schema.String,
    createdAt: Schema.DateTimeUtc,
    updatedAt: Schema.DateTimeUtc,
    expiresAt: Schema.DateTimeUtc,
    encryptedSessionSigningKey: Schema.optional(Schema.String)
  },
  { identifier: "AuthSession" }
) {}

/** 200 of a passkey's `challenge`: the WebAuthn challenge (lowercase hex, used as UTF-8 bytes), single use. */
export class PasskeyAuthChallenge extends SchemaClass.Class<PasskeyAuthChallenge>("PasskeyAuthChallenge")(
  {
    challenge: Schema.String,
    requestId: SignedRequests.SignedRequestId,
    expiresAt: Schema.DateTimeUtc
  },
  { identifier: "PasskeyAuthChallenge" }
) {}

/** 200 of an export's signed retry: the wallet's secret sealed to the request's `clientPublicKey`. */
export class ExportedWalletView extends SchemaClass.Class<ExportedWalletView>("ExportedWalletView")(
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
    ...(session.credentialId === undefined ? {} : { credentialId: session.credentialId }),
    nickname: session.nickname,
    createdAt: session.createdAt,
    updatedAt: session.updatedAt,
    expiresAt: session.expiresAt,
    ...(encryptedSessionSigningKey === undefined ? {} : { encryptedSessionSigningKey })
  })

/** The wire view of a newly granted session, `encryptedSessionSigningKey` included when the grant has one. */
export const grantView = (grant: SessionGrants.Grant): AuthSessionView =>
  authSessionView(grant.session, grant.encryptedSessionSigningKey)

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
