import { Schema } from "effect"
import { InternalAccount } from "../accounts/index.js"

const strict = { onExcessProperty: "error" } as const
const Base64Url = Schema.String.pipe(
  Schema.pattern(/^[A-Za-z0-9_-]+={0,2}$/, { description: "a base64url string" }),
  Schema.maxLength(16_384)
)
const Text = (max: number) => Schema.String.pipe(Schema.minLength(1), Schema.maxLength(max))

/** A P-256 public key as SEC1 hex: `02`/`03` + 64 hex digits (compressed) or `04` + 128 (uncompressed). */
export const ClientPublicKey = Schema.String.pipe(
  Schema.pattern(/^(0[23][0-9a-fA-F]{64}|04[0-9a-fA-F]{128})$/, {
    description: "a P-256 public key in SEC1 hex: 02 or 03 and 64 hex digits, or 04 and 128"
  })
)

/** A WebAuthn registration, its fields base64url as the browser gives them (`clientDataJSON` spelled `clientDataJson`). */
export const PasskeyAttestation = Schema.Struct({
  credentialId: Base64Url,
  clientDataJson: Base64Url,
  attestationObject: Base64Url,
  transports: Schema.optionalWith(Schema.Array(Text(32)).pipe(Schema.maxItems(10)), { default: () => [] })
}).annotations({ identifier: "PasskeyAttestation" })

/** A WebAuthn assertion. */
export const PasskeyAssertion = Schema.Struct({
  credentialId: Base64Url,
  clientDataJson: Base64Url,
  authenticatorData: Base64Url,
  signature: Base64Url,
  userHandle: Schema.optional(Schema.NullOr(Schema.String.pipe(Schema.maxLength(1024))))
}).annotations({ identifier: "PasskeyAssertion" })

/** `POST /auth/credentials`, by `type`. `EMAIL_OTP` and `SMS_OTP` take the customer's email or phone. */
export const CreateCredentialRequest = Schema.Union(
  Schema.Struct({
    type: Schema.Literal("OAUTH"),
    accountId: InternalAccount.InternalAccountId,
    oidcToken: Text(16_384)
  }),
  Schema.Struct({
    type: Schema.Literal("PASSKEY"),
    accountId: InternalAccount.InternalAccountId,
    challenge: Text(1024),
    nickname: Text(255),
    attestation: PasskeyAttestation
  }),
  Schema.Struct({ type: Schema.Literal("EMAIL_OTP"), accountId: InternalAccount.InternalAccountId }),
  Schema.Struct({ type: Schema.Literal("SMS_OTP"), accountId: InternalAccount.InternalAccountId })
).annotations({ identifier: "CreateCredentialRequest", parseOptions: strict })
export type CreateCredentialRequest = typeof CreateCredentialRequest.Type

/** `POST /auth/credentials/{id}/challenge`: no body for OTP credentials, `{clientPublicKey}` for passkeys. */
export const CredentialChallengeRequest = Schema.Struct({
  clientPublicKey: Schema.optional(ClientPublicKey)
}).annotations({ identifier: "CredentialChallengeRequest", parseOptions: strict })
export type CredentialChallengeRequest = typeof CredentialChallengeRequest.Type

/** `POST /auth/credentials/{id}/verify`, by `type`. */
export const VerifyCredentialRequest = Schema.Union(
  Schema.Struct({ type: Schema.Literal("EMAIL_OTP", "SMS_OTP"), encryptedOtpBundle: Text(8192) }),
  Schema.Struct({ type: Schema.Literal("OAUTH"), oidcToken: Text(16_384), clientPublicKey: ClientPublicKey }),
  Schema.Struct({ type: Schema.Literal("PASSKEY"), assertion: PasskeyAssertion })
).annotations({ identifier: "VerifyCredentialRequest", parseOptions: strict })
export type VerifyCredentialRequest = typeof VerifyCredentialRequest.Type

/** `POST /auth/sessions/{id}/refresh` and `POST /internal-accounts/{id}/export`: the device's key, on both legs. */
export const ClientKeyRequest = Schema.Struct({ clientPublicKey: ClientPublicKey }).annotations({
  identifier: "ClientKeyRequest",
  parseOptions: strict
})
export type ClientKeyRequest = typeof ClientKeyRequest.Type
