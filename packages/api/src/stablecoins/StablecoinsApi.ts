import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import {
  IdempotencyRecord,
  Stablecoin,
  StablecoinOperation,
  StablecoinProviderAccount,
  StablecoinRequest
} from "@payrail/core"
import { ExternalAccountsApi } from "../accounts/index.js"
import { FieldErrorReport, ListQuery } from "../kernel/index.js"
import { QuotesApi } from "../payments/index.js"
import { Authentication } from "../platforms/index.js"
import {
  AmountNotRepresentableBody,
  BalanceLimitExceededBody,
  BurnSourceNotSupportedBody,
  ExternalAccountNotSupportedBody,
  OperationNotSupportedBody,
  ProviderAccountInvalidBody,
  ProviderAccountNotFoundBody,
  ProviderAccountRevokedBody,
  ProviderAccountSelectionRequiredBody,
  ProviderUnavailableBody,
  StablecoinAlreadyRegisteredBody,
  StablecoinNotFoundBody,
  StablecoinNotProvisionedBody,
  StablecoinOperationNotFoundBody
} from "./StablecoinErrorBodies.js"

const { reportFieldErrors } = FieldErrorReport
const exact = { exact: true } as const

/**
 * The `Idempotency-Key` header, REQUIRED on the stablecoin create, link, mint and burn operations: a request
 * without it is 400 `INVALID_INPUT` naming `idempotency-key`. A retry with the key answers the first response.
 */
export const RequiredIdempotencyKey = reportFieldErrors(
  Schema.Struct({
    "idempotency-key": IdempotencyRecord.IdempotencyKey.annotations({
      description:
        "Required. Makes the request safe to retry: a retry with the same key, method, path and body answers the " +
        "first response (`Idempotent-Replayed: true`); the key with another request is 409."
    })
  })
)

export const StablecoinPath = reportFieldErrors(Schema.Struct({ stablecoinId: Stablecoin.StablecoinId }))
export const OperationPath = reportFieldErrors(
  Schema.Struct({ stablecoinOperationId: StablecoinOperation.StablecoinOperationId })
)
export const ProviderAccountPath = reportFieldErrors(
  Schema.Struct({ stablecoinProviderAccountId: StablecoinProviderAccount.StablecoinProviderAccountId })
)

/** `GET /stablecoins` query. */
export const StablecoinListParams = reportFieldErrors(
  Schema.Struct({
    issuanceStatus: Schema.optionalWith(Stablecoin.IssuanceStatus, exact),
    gridOperationsStatus: Schema.optionalWith(Stablecoin.GridOperationsStatus, exact),
    provider: Schema.optionalWith(StablecoinProviderAccount.StablecoinProviderName, exact),
    ...ListQuery.pageParams
  })
)

/** `GET /stablecoin-provider-accounts` query. */
export const ProviderAccountListParams = reportFieldErrors(
  Schema.Struct({
    provider: Schema.optionalWith(StablecoinProviderAccount.StablecoinProviderName, exact),
    status: Schema.optionalWith(StablecoinProviderAccount.ProviderAccountStatus, exact),
    ...ListQuery.pageParams
  })
)

/** `GET /stablecoins/{stablecoinId}/operations` query. */
export const OperationListParams = reportFieldErrors(Schema.Struct(ListQuery.pageParams))

const created = <A, I, R>(schema: Schema.Schema<A, I, R>) =>
  schema.annotations(HttpApiSchema.annotations({ status: 201 }))

const CreatedStablecoin = created(Stablecoin.Stablecoin)
const CreatedOperation = created(StablecoinOperation.StablecoinOperation)
const CreatedProviderAccount = created(StablecoinProviderAccount.StablecoinProviderAccount)

/**
 * Stablecoin issuance (HTTP Basic): link provider accounts, register the provider's stablecoins, mint and burn them
 * with real ledger balances, read the operations.
 */
export class StablecoinsApi extends HttpApiGroup.make("stablecoins")
  .add(
    HttpApiEndpoint.post("linkProviderAccount", "/stablecoin-provider-accounts")
      .setHeaders(RequiredIdempotencyKey)
      .setPayload(reportFieldErrors(StablecoinRequest.LinkProviderAccountRequest))
      .addSuccess(CreatedProviderAccount)
      .addError(ProviderAccountInvalidBody)
      .annotate(OpenApi.Summary, "Link a stablecoin provider account")
      .annotate(
        OpenApi.Description,
        "Verifies the provider API credentials and links the account in the platform's environment. The secret is " +
          "never returned nor logged. `Idempotency-Key` is required."
      )
  )
  .add(
    HttpApiEndpoint.get("listProviderAccounts", "/stablecoin-provider-accounts")
      .setUrlParams(ProviderAccountListParams)
      .addSuccess(
        ListQuery.ListResponse(
          StablecoinProviderAccount.StablecoinProviderAccount,
          "StablecoinProviderAccountListResponse"
        )
      )
      .annotate(OpenApi.Summary, "List stablecoin provider account links, newest first")
  )
  .add(
    HttpApiEndpoint.get("getProviderAccount", "/stablecoin-provider-accounts/:stablecoinProviderAccountId")
      .setPath(ProviderAccountPath)
      .addSuccess(StablecoinProviderAccount.StablecoinProviderAccount)
      .addError(ProviderAccountNotFoundBody)
      .annotate(OpenApi.Summary, "Get a stablecoin provider account link")
  )
  .add(
    HttpApiEndpoint.post("register", "/stablecoins")
      .setHeaders(RequiredIdempotencyKey)
      .setPayload(reportFieldErrors(StablecoinRequest.RegisterStablecoinRequest))
      .addSuccess(CreatedStablecoin)
      .addError(ProviderAccountNotFoundBody)
      .addError(ProviderAccountInvalidBody)
      .addError(ProviderAccountRevokedBody)
      .addError(ProviderAccountSelectionRequiredBody)
      .addError(StablecoinAlreadyRegisteredBody)
      .annotate(OpenApi.Summary, "Register an existing provider-created stablecoin")
      .annotate(
        OpenApi.Description,
        "Links a token the provider created to Payrail, against `stablecoinProviderAccountId` or the only active " +
          "link. `Idempotency-Key` is required. A token the platform registered already (same `network` and " +
          "`networkTokenIdentifier`) is 409 `CONFLICT` with `details.rule: stablecoin_already_registered`."
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/stablecoins")
      .setUrlParams(StablecoinListParams)
      .addSuccess(ListQuery.ListResponse(Stablecoin.Stablecoin, "StablecoinListResponse"))
      .annotate(OpenApi.Summary, "List stablecoins, newest first")
  )
  .add(
    HttpApiEndpoint.get("get", "/stablecoins/:stablecoinId")
      .setPath(StablecoinPath)
      .addSuccess(Stablecoin.Stablecoin)
      .addError(StablecoinNotFoundBody)
      .annotate(OpenApi.Summary, "Get a stablecoin")
  )
  .add(
    HttpApiEndpoint.post("mint", "/stablecoins/:stablecoinId/mints")
      .setPath(StablecoinPath)
      .setHeaders(RequiredIdempotencyKey)
      .setPayload(reportFieldErrors(StablecoinRequest.MintRequest))
      .addSuccess(CreatedOperation)
      .addError(StablecoinNotFoundBody)
      .addError(ExternalAccountsApi.NotFoundBody)
      .addError(ProviderAccountNotFoundBody)
      .addError(ProviderAccountInvalidBody)
      .addError(ProviderAccountRevokedBody)
      .addError(StablecoinNotProvisionedBody)
      .addError(AmountNotRepresentableBody)
      .addError(OperationNotSupportedBody)
      .addError(ExternalAccountNotSupportedBody)
      .addError(BalanceLimitExceededBody)
      .addError(ProviderUnavailableBody)
      .annotate(OpenApi.Summary, "Create a stablecoin mint operation")
      .annotate(
        OpenApi.Description,
        "Mints `amount` (in the stablecoin's smallest unit, a whole minor unit of its base currency) to a Spark " +
          "wallet external account. A completed mint credits the stablecoin's supply in the ledger. " +
          "`Idempotency-Key` is required."
      )
  )
  .add(
    HttpApiEndpoint.post("burn", "/stablecoins/:stablecoinId/burns")
      .setPath(StablecoinPath)
      .setHeaders(RequiredIdempotencyKey)
      .setPayload(reportFieldErrors(StablecoinRequest.BurnRequest))
      .addSuccess(CreatedOperation)
      .addError(StablecoinNotFoundBody)
      .addError(ExternalAccountsApi.NotFoundBody)
      .addError(ProviderAccountNotFoundBody)
      .addError(ProviderAccountInvalidBody)
      .addError(ProviderAccountRevokedBody)
      .addError(StablecoinNotProvisionedBody)
      .addError(AmountNotRepresentableBody)
      .addError(BurnSourceNotSupportedBody)
      .addError(ExternalAccountNotSupportedBody)
      .addError(QuotesApi.InsufficientFundsBody)
      .addError(ProviderUnavailableBody)
      .annotate(OpenApi.Summary, "Create a stablecoin burn operation")
      .annotate(
        OpenApi.Description,
        "Burns `amount` and pays the fiat out to a bank external account. A completed burn debits the stablecoin's " +
          "supply, never below zero (400 `INSUFFICIENT_FUNDS`). `Idempotency-Key` is required."
      )
  )
  .add(
    HttpApiEndpoint.get("listOperations", "/stablecoins/:stablecoinId/operations")
      .setPath(StablecoinPath)
      .setUrlParams(OperationListParams)
      .addSuccess(ListQuery.ListResponse(StablecoinOperation.StablecoinOperation, "StablecoinOperationListResponse"))
      .addError(StablecoinNotFoundBody)
      .annotate(OpenApi.Summary, "List a stablecoin's mint and burn operations, newest first")
  )
  .add(
    HttpApiEndpoint.get("getOperation", "/stablecoin-operations/:stablecoinOperationId")
      .setPath(OperationPath)
      .addSuccess(StablecoinOperation.StablecoinOperation)
      .addError(StablecoinOperationNotFoundBody)
      .annotate(OpenApi.Summary, "Get a stablecoin operation")
  )
  .addError(Authentication.PermissionDeniedBody)
  .middleware(Authentication.Authentication)
  .annotate(OpenApi.Title, "Stablecoins")
  .annotate(OpenApi.Description, "Stablecoin issuance through a linked provider account.") {}
