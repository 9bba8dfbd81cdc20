import { DateTime, Schema } from "effect"
import { AuthMethod, InternalAccount } from "../accounts/index.js"
import { ResourceId, SchemaClass } from "../kernel/index.js"

/** `Session:<uuid>`: a wallet session, the right to sign for one embedded wallet until it expires. */
export const AuthSessionId = ResourceId.make("Session")
export type AuthSessionId = typeof AuthSessionId.Type

/** The default lifetime of a session signing key (the spec's 15 minutes). */
export const defaultLifetimeSeconds = 15 * 60

/**
 * A session as stored. `publicKey` is the P-256 key (lowercase SEC1 hex, compressed) whose stamps the session
 * authorises: the client's TEK for OTP logins, the client's own key in the client-held-key model, or the key the
 * service generated and sealed to the client (`encryptedSessionSigningKey`, never stored). `authMethodId` is the
 * credential that issued it (and `credentialId` that credential's own, a passkey's WebAuthn id, as the reference
 * shows it on sessions); revoking that credential revokes the session. A session is active while it is neither
 * revoked nor expired.
 */
export class AuthSession extends SchemaClass.Class<AuthSession>("AuthSession")({
  id: AuthSessionId,
  accountId: InternalAccount.InternalAccountId,
  type: AuthMethod.AuthMethodType,
  authMethodId: AuthMethod.AuthMethodId,
  nickname: Schema.String,
  credentialId: Schema.optional(Schema.String),
  publicKey: Schema.String,
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc,
  expiresAt: Schema.DateTimeUtc,
  revokedAt: Schema.optional(Schema.DateTimeUtc)
}) {}

/** Whether the session may sign at `now`: not revoked, and `now` is before `expiresAt`. */
export const isActive = (session: AuthSession, now: DateTime.Utc): boolean =>
  session.revokedAt === undefined && DateTime.lessThan(now, session.expiresAt)
