import { Schema } from "effect"
import { InternalAccountId } from "./InternalAccount.js"
import { ResourceId, SchemaClass } from "../kernel/index.js"

/** `AuthMethod:<uuid>`: a credential of an embedded wallet. */
export const AuthMethodId = ResourceId.make("AuthMethod")
export type AuthMethodId = typeof AuthMethodId.Type

export const AuthMethodType = Schema.Literal("PASSKEY", "OAUTH", "EMAIL_OTP", "SMS_OTP")
export type AuthMethodType = typeof AuthMethodType.Type

/**
 * What a passkey credential keeps for its assertions: the COSE public key (base64url), the last signature counter
 * seen, and the transports the authenticator reported at registration.
 */
export const PasskeyKey = Schema.Struct({
  publicKey: Schema.String,
  counter: Schema.Int.pipe(Schema.nonNegative()),
  transports: Schema.Array(Schema.String)
})
export type PasskeyKey = typeof PasskeyKey.Type

/** The identity an `OAUTH` credential stands for: the token's `iss`, `aud` and `sub`. */
export const OauthIdentity = Schema.Struct({ issuer: Schema.String, audience: Schema.String, subject: Schema.String })
export type OauthIdentity = typeof OauthIdentity.Type

/**
 * A credential on an internal account, as stored. `nickname` is the customer email for `EMAIL_OTP`, the phone for
 * `SMS_OTP`, the token's email for `OAUTH` and the given nickname for passkeys. `credentialId` (base64url) and
 * `passkey` are set on passkeys only, `oauth` on `OAUTH` only; neither `passkey` nor `oauth` is ever shown on the
 * wire.
 */
export class AuthMethod extends SchemaClass.Class<AuthMethod>("AuthMethod")({
  id: AuthMethodId,
  accountId: InternalAccountId,
  type: AuthMethodType,
  credentialId: Schema.optional(Schema.String),
  nickname: Schema.String,
  passkey: Schema.optional(PasskeyKey),
  oauth: Schema.optional(OauthIdentity),
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc
}) {}
