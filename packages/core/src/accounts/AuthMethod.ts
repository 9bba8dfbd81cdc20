import { Schema } from "effect"
import { InternalAccountId } from "./InternalAccount.js"
import { ResourceId } from "../kernel/index.js"

/** `AuthMethod:<uuid>`: a credential of an embedded wallet. */
export const AuthMethodId = ResourceId.make("AuthMethod")
export type AuthMethodId = typeof AuthMethodId.Type

export const AuthMethodType = Schema.Literal("PASSKEY", "OAUTH", "EMAIL_OTP", "SMS_OTP")
export type AuthMethodType = typeof AuthMethodType.Type

/**
 * A credential on an internal account. `nickname` is the customer email for `EMAIL_OTP`, the phone for `SMS_OTP`,
 * the token's email for `OAUTH` and the given nickname for passkeys.
 */
export class AuthMethod extends Schema.Class<AuthMethod>("AuthMethod")({
  id: AuthMethodId,
  accountId: InternalAccountId,
  type: AuthMethodType,
  credentialId: Schema.optional(Schema.String),
  nickname: Schema.String,
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc
}) {}
