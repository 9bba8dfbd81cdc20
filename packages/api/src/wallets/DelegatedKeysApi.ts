import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { DelegatedKey, DelegatedKeyErrors, FieldFormat, InternalAccount, SchemaClass } from "@payrail/core"
import { InternalAccountsApi } from "../accounts/index.js"
import { ErrorBody, FieldErrorReport, SignedRetryContract } from "../kernel/index.js"
import { Authentication } from "../platforms/index.js"

const { wire } = ErrorBody
const { reportFieldErrors } = FieldErrorReport

/** 404 `NOT_FOUND`: no delegated key with this id on the platform. */
export const DelegatedKeyNotFoundBody = wire(DelegatedKeyErrors.DelegatedKeyNotFound, 404, "No such delegated key")

/** 409 `CONFLICT` (`one_live_key_per_card`): revoke the wallet's live key for the card first. */
export const DelegatedKeyExistsBody = wire(
  DelegatedKeyErrors.DelegatedKeyExists,
  409,
  "The wallet already has a non-revoked delegated key for this card"
)

/** A new delegated key, answered with 201 (its own schema, so that no other response of a key becomes a 201). */
const CreatedKey = DelegatedKey.DelegatedKey.annotations(HttpApiSchema.annotations({ status: 201 }))

/** `GET /auth/delegated-keys`: unpaginated, as the reference's list. */
export class DelegatedKeyListResponse extends SchemaClass.Class<DelegatedKeyListResponse>("DelegatedKeyListResponse")({
  data: Schema.Array(DelegatedKey.DelegatedKey)
}) {}

const KeyPath = reportFieldErrors(Schema.Struct({ id: DelegatedKey.DelegatedKeyId }))
const ListParams = reportFieldErrors(
  Schema.Struct({
    accountId: Schema.optional(InternalAccount.InternalAccountId),
    cardId: Schema.optional(FieldFormat.Text(255))
  })
)

/**
 * Delegated signing keys of embedded wallets: a server key the wallet's owner authorizes once (signed retry) to sign
 * the wallet's quote executions without a device session, until it is revoked or expires.
 */
export class DelegatedKeysApi extends HttpApiGroup.make("delegatedKeys")
  .add(
    HttpApiEndpoint.post("create", "/auth/delegated-keys")
      .setHeaders(SignedRetryContract.WalletRequestHeaders)
      .setPayload(reportFieldErrors(DelegatedKey.CreateDelegatedKeyRequest))
      .addSuccess(CreatedKey)
      .addSuccess(SignedRetryContract.SignedRequestChallenge, { status: 202 })
      .addError(SignedRetryContract.SignedRetryRefusedBody)
      .addError(InternalAccountsApi.InternalAccountNotFoundBody)
      .addError(DelegatedKeyExistsBody)
      .annotate(OpenApi.Summary, "Create a delegated signing key")
      .annotate(
        OpenApi.Description,
        "Registers `publicKey` (a compressed P-256 key whose private half the platform's server holds) for the " +
          "embedded wallet `internalAccountId`, optionally for one `cardId`, with `scopes` (default `EXECUTE_QUOTE`) " +
          "and an optional `expiresAt`. A signed retry: the first request (without wallet headers) answers 202 with a " +
          "challenge; stamp its `payloadToSign` with an active session's key and re-send the same request with " +
          "`Service-Wallet-Signature` and `Request-Id`: 201 with the key `ACTIVE`. While active and unexpired, its " +
          "stamps are accepted for the wallet's quote executions. 409 when the wallet has a non-revoked key for the card."
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/auth/delegated-keys")
      .setUrlParams(ListParams)
      .addSuccess(DelegatedKeyListResponse)
      .annotate(OpenApi.Summary, "List delegated signing keys")
      .annotate(
        OpenApi.Description,
        "The keys of a wallet (`accountId`), of a card (`cardId`) or both, oldest first, every status; at least one " +
          "filter is required. Not paginated."
      )
  )
  .add(
    HttpApiEndpoint.get("get", "/auth/delegated-keys/:id")
      .setPath(KeyPath)
      .addSuccess(DelegatedKey.DelegatedKey)
      .addError(DelegatedKeyNotFoundBody)
      .annotate(OpenApi.Summary, "Get a delegated signing key")
  )
  .add(
    HttpApiEndpoint.del("revoke", "/auth/delegated-keys/:id")
      .setPath(KeyPath)
      .addSuccess(Schema.Void, { status: 204 })
      .addError(DelegatedKeyNotFoundBody)
      .annotate(OpenApi.Summary, "Revoke a delegated signing key")
      .annotate(
        OpenApi.Description,
        "The key becomes `REVOKED` at once: no signature it makes is accepted from then on. Revoking a revoked key " +
          "answers 204 again."
      )
  )
  .addError(Authentication.PermissionDeniedBody)
  .middleware(Authentication.Authentication)
  .annotate(OpenApi.Title, "Delegated keys")
  .annotate(
    OpenApi.Description,
    "Server keys that sign for embedded wallets in place of a device session (docs/incoming-approvals.md)."
  ) {}
