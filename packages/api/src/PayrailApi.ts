import * as HttpApi from "@effect/platform/HttpApi"
import * as OpenApi from "@effect/platform/OpenApi"
import { Errors, InvalidInput } from "@payrail/core"
import { ExternalAccountsApi, InternalAccountsApi } from "./accounts/index.js"
import { AgentApprovalsApi, AgentOperationsApi, AgentsApi } from "./agents/index.js"
import { CardsApi, SandboxCardsApi } from "./cards/index.js"
import { ScaApi, ScaPaymentsApi } from "./sca/index.js"
import { CustomersApi } from "./customers/index.js"
import { InvitationsApi } from "./invitations/index.js"
import { LookupsApi } from "./lookups/index.js"
import { StablecoinsApi } from "./stablecoins/index.js"
import { BulkImportsApi } from "./customers/index.js"
import { WebhooksApi } from "./events/index.js"
import { ErrorBody, HttpErrors, IdempotencyHeader, SystemApi } from "./kernel/index.js"
import {
  ExchangeRatesApi,
  QuotesApi,
  ReceiverApi,
  SandboxPaymentsApi,
  TransactionsApi,
  TransfersApi
} from "./payments/index.js"
import { ConfigApi, SandboxClockApi, TokensApi } from "./platforms/index.js"
import { BeneficialOwnersApi, ContactVerificationApi, KycLinksApi, VerificationsApi } from "./verification/index.js"
import { WalletAuthApi } from "./wallets/index.js"
import { DocumentsApi } from "./verification/index.js"
import { withoutDecodeError } from "./internal/openApiCleanup.js"
import { IncomingApprovalsApi } from "./payments/index.js"
import { DelegatedKeysApi } from "./wallets/index.js"

const { wire } = ErrorBody

/** The API version; every platform endpoint lives under it. */
export const basePath = "/2025-10-13"

/** 400 `INVALID_INPUT` with `details.errors[]` naming every invalid field. */
export const InvalidInputBody = wire(
  InvalidInput.InvalidInput,
  400,
  "The request is invalid; details.errors lists every invalid field"
)

/** 404 `NOT_FOUND`: no route matches the path (a missing resource has its own code). */
export const RouteNotFoundBody = wire(HttpErrors.RouteNotFound, 404, "No such route")
/** 405 `METHOD_NOT_ALLOWED`, with `details.allowedMethods` (also sent as `Allow`). */
export const MethodNotAllowedBody = wire(HttpErrors.MethodNotAllowed, 405, "The route does not accept this method")
/** 413 `PAYLOAD_TOO_LARGE`. */
export const PayloadTooLargeBody = wire(HttpErrors.PayloadTooLarge, 413, "The request body is too large")
/**
 * 431 `REQUEST_HEADERS_TOO_LARGE`: the request line and headers exceed what the server reads, with
 * `details: {rule: "max_header_size", maxHeaderBytes}`. Any request can get it: it is answered before routing.
 */
export const RequestHeadersTooLargeBody = wire(
  HttpErrors.RequestHeadersTooLarge,
  431,
  "The request line and headers are too large"
)
/** 415 `UNSUPPORTED_MEDIA_TYPE`. */
export const UnsupportedMediaTypeBody = wire(
  HttpErrors.UnsupportedMediaType,
  415,
  "The request body must be application/json"
)
/** 500 `INTERNAL_ERROR`: an unexpected failure; the cause is logged, never sent. */
export const InternalErrorBody = wire(HttpErrors.InternalError, 500, "Unexpected failure")
/** 500 `INTERNAL_ERROR`: the store failed. */
export const StoreFailureBody = wire(Errors.StoreFailure, 500, "The store failed")

/**
 * The whole Payrail HTTP contract. A typed client needs only this (`HttpApiClient.make(PayrailApi)`); the server
 * implementation lives in `@payrail/http`.
 */
export class PayrailApi extends HttpApi.make("payrail")
  .add(CustomersApi.CustomersApi)
  .add(InternalAccountsApi.InternalAccountsApi)
  .add(ExternalAccountsApi.ExternalAccountsApi)
  .add(WebhooksApi.WebhooksApi)
  .add(ConfigApi.ConfigApi)
  .add(TokensApi.TokensApi)
  .add(SandboxClockApi.SandboxClockApi)
  .add(ExchangeRatesApi.ExchangeRatesApi)
  .add(QuotesApi.QuotesApi)
  .add(TransactionsApi.TransactionsApi)
  .add(SandboxPaymentsApi.SandboxPaymentsApi)
  .add(TransfersApi.TransfersApi)
  .add(ReceiverApi.ReceiverApi)
  .add(WalletAuthApi.WalletAuthApi)
  .add(ContactVerificationApi.ContactVerificationApi)
  .add(VerificationsApi.VerificationsApi)
  .add(BeneficialOwnersApi.BeneficialOwnersApi)
  .add(KycLinksApi.KycLinksApi)
  .add(DocumentsApi.DocumentsApi)
  .add(AgentsApi.AgentsApi)
  .add(AgentsApi.AgentDeviceCodesApi)
  .add(AgentsApi.AgentMeApi)
  .add(AgentOperationsApi.AgentOperationsApi)
  .add(AgentApprovalsApi.AgentApprovalsApi)
  .add(CardsApi.CardsApi)
  .add(SandboxCardsApi.SandboxCardsApi)
  .add(InvitationsApi.InvitationsApi)
  .add(LookupsApi.LookupsApi)
  .add(StablecoinsApi.StablecoinsApi)
  .add(IncomingApprovalsApi.IncomingApprovalsApi)
  .add(BulkImportsApi.BulkImportsApi)
  .add(DelegatedKeysApi.DelegatedKeysApi)
  .add(ScaApi.ScaApi)
  .add(ScaPaymentsApi.BeneficiaryTrustApi)
  .add(ScaPaymentsApi.QuoteAuthorizationApi)
  .prefix(basePath)
  .add(SystemApi.SystemApi)
  .addError(InvalidInputBody)
  .addError(RouteNotFoundBody)
  .addError(MethodNotAllowedBody)
  .addError(PayloadTooLargeBody)
  .addError(UnsupportedMediaTypeBody)
  .addError(RequestHeadersTooLargeBody)
  .addError(InternalErrorBody)
  .addError(StoreFailureBody)
  .addError(IdempotencyHeader.IdempotencyKeyReusedBody)
  .addError(IdempotencyHeader.IdempotencyKeyInProgressBody)
  // Relative to the document: the API is served beside `/openapi.json`, under whatever prefix it is mounted at.
  .annotate(OpenApi.Servers, [{ url: ".", description: "Where this document is served (the API's mount point)" }])
  .annotate(OpenApi.License, { name: "MIT", url: "https://opensource.org/license/mit" })
  .annotate(OpenApi.Title, "Payrail API")
  .annotate(OpenApi.Version, basePath.slice(1))
  .annotate(
    OpenApi.Description,
    "Payments platform API. Platform endpoints use HTTP Basic with an API token; every error is `{status, code, message, reason, details?}`."
  )
  .annotate(OpenApi.Transform, (spec) => withoutDecodeError(IdempotencyHeader.documentHeader(spec))) {}
