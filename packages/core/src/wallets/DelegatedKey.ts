import { DateTime, Schema } from "effect"
import { FieldFormat } from "@payrail/account-formats"
import { InternalAccount } from "../accounts/index.js"
import { ResourceId, SchemaClass } from "../kernel/index.js"

/** `DelegatedKey:<uuid>`: a server key allowed to sign for an embedded wallet. */
export const DelegatedKeyId = ResourceId.make("DelegatedKey")
export type DelegatedKeyId = typeof DelegatedKeyId.Type

/**
 * The reference's statuses: `PENDING` (registered, not yet authorized by the wallet; Payrail's two-leg flow never
 * leaves a key there), `ACTIVE` (accepted as a signer), `REVOKED` (final).
 */
export const DelegatedKeyStatus = Schema.Literal("PENDING", "ACTIVE", "REVOKED")
export type DelegatedKeyStatus = typeof DelegatedKeyStatus.Type

/** The wallet actions a delegated key may sign: executing the wallet's quotes (card payments, payouts). */
export const DelegatedKeyScope = Schema.Literal("EXECUTE_QUOTE")
export type DelegatedKeyScope = typeof DelegatedKeyScope.Type

/** A compressed P-256 public key, SEC1 hex: `02` or `03` and 64 hex digits (stored lowercase). */
export const CompressedPublicKey = Schema.String.pipe(
  Schema.pattern(/^0[23][0-9a-fA-F]{64}$/, {
    description: "a compressed P-256 public key in SEC1 hex: 02 or 03 and 64 hex digits"
  })
)

/**
 * A delegated signing key as the API shows it, in the reference's fields (`cardId` optional: a key may serve the
 * whole wallet) plus Payrail's `scopes` and optional `expiresAt`. The platform's server holds the private key; the
 * wallet's owner authorized it once, with a session stamp. While `ACTIVE` and unexpired, its stamps are accepted for
 * the actions of its `scopes` on that wallet in place of a session's.
 */
export class DelegatedKey extends SchemaClass.Class<DelegatedKey>("DelegatedKey")({
  id: DelegatedKeyId,
  accountId: InternalAccount.InternalAccountId,
  cardId: Schema.optional(Schema.String),
  publicKey: Schema.String,
  nickname: Schema.String,
  status: DelegatedKeyStatus,
  scopes: Schema.Array(DelegatedKeyScope),
  expiresAt: Schema.optional(Schema.DateTimeUtc),
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc
}) {}

/** Whether the key may sign `scope` at `now`: `ACTIVE`, unexpired (its expiry itself is too late), in scope. */
export const signs = (key: DelegatedKey, scope: string, now: DateTime.Utc): boolean =>
  key.status === "ACTIVE" &&
  (key.expiresAt === undefined || DateTime.lessThan(now, key.expiresAt)) &&
  key.scopes.some((allowed) => allowed === scope)

/**
 * Body of `POST /auth/delegated-keys` (the same on both legs): the embedded wallet (`internalAccountId`), the key
 * (`publicKey`), a `nickname` (1–256), and optionally the card it serves, its scopes (default `EXECUTE_QUOTE`) and
 * its expiry (in the future).
 */
export const CreateDelegatedKeyRequest = Schema.Struct({
  internalAccountId: InternalAccount.InternalAccountId,
  publicKey: CompressedPublicKey,
  nickname: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(256)),
  cardId: Schema.optional(FieldFormat.Text(255)),
  scopes: Schema.optional(Schema.Array(DelegatedKeyScope).pipe(Schema.minItems(1))),
  expiresAt: Schema.optional(Schema.DateTimeUtc)
}).annotations({
  identifier: "DelegatedKeyCreateRequest",
  parseOptions: { errors: "all", onExcessProperty: "error" }
})
export type CreateDelegatedKeyRequest = typeof CreateDelegatedKeyRequest.Type
