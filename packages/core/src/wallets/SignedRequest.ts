import { DateTime, Schema } from "effect"
import { AuthMethod, InternalAccount } from "../accounts/index.js"
import { ResourceId, SchemaClass } from "../kernel/index.js"

/** `Request:<uuid>`: a signed-retry challenge, the `requestId` its retry carries in `Request-Id`. */
export const SignedRequestId = ResourceId.make("Request")
export type SignedRequestId = typeof SignedRequestId.Type

/** How long a retry may follow its challenge (the spec's "typically 5 minutes"). */
export const lifetimeSeconds = 5 * 60

/** The wallet operations that go through the signed retry, one per endpoint. */
export const Operation = Schema.Literal(
  "CREATE_CREDENTIAL",
  "REVOKE_CREDENTIAL",
  "VERIFY_CREDENTIAL",
  "REFRESH_SESSION",
  "REVOKE_SESSION",
  "EXPORT_WALLET",
  "UPDATE_WALLET",
  "UPDATE_CUSTOMER_EMAIL",
  "EXECUTE_QUOTE",
  "CREATE_DELEGATED_KEY"
)
export type Operation = typeof Operation.Type

/**
 * A signed-retry challenge as stored: the operation, the wallet it acts on, the resource in its path (`targetId`:
 * the credential, session, account, customer or quote), the SHA-256 (lowercase hex) of the canonical request body,
 * the exact `payloadToSign` handed out, and its expiry. `signerPublicKey`, when set, is the only key whose stamp the
 * retry accepts (an OTP login's TEK, which is not a session yet); otherwise any active session of the wallet may
 * sign. `clientPublicKey` is the device key (as the client sent it) that a session created by this request is bound
 * to (a passkey login). `type` is the credential type the challenge body names (credential and session challenges). A request is
 * consumed once (`consumedAt`), by the retry that performs the operation.
 */
export class SignedRequest extends SchemaClass.Class<SignedRequest>("SignedRequest")({
  id: SignedRequestId,
  accountId: InternalAccount.InternalAccountId,
  operation: Operation,
  targetId: Schema.String,
  bodyHash: Schema.String,
  payloadToSign: Schema.String,
  type: Schema.optional(AuthMethod.AuthMethodType),
  signerPublicKey: Schema.optional(Schema.String),
  clientPublicKey: Schema.optional(Schema.String),
  createdAt: Schema.DateTimeUtc,
  expiresAt: Schema.DateTimeUtc,
  consumedAt: Schema.optional(Schema.DateTimeUtc)
}) {}

/** Whether a retry arriving at `now` is in time: strictly before `expiresAt`. */
export const isOpen = (request: SignedRequest, now: DateTime.Utc): boolean => DateTime.lessThan(now, request.expiresAt)
