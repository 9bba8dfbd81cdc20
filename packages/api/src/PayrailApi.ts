import { HttpApi, OpenApi } from "@effect/platform"
import { Errors, InvalidInput } from "@payrail/core"
import { CustomersApi } from "./CustomersApi.js"
import { ExternalAccountsApi } from "./ExternalAccountsApi.js"
import { InternalAccountsApi } from "./InternalAccountsApi.js"
import { wire } from "./ErrorBody.js"
import * as HttpErrors from "./HttpErrors.js"
import { SystemApi } from "./SystemApi.js"
import { withoutDecodeError } from "./internal/openApiCleanup.js"

/** The API version; every platform endpoint lives under it. */
export const basePath = "/2025-10-13"

/** 400 `INVALID_INPUT` with `details.errors[]` naming every invalid field. */
export const InvalidInputBody = wire(InvalidInput.InvalidInput, 400, "The request is invalid; details.errors lists every invalid field")

/**
 * The whole Payrail HTTP contract. A typed client needs only this (`HttpApiClient.make(PayrailApi)`); the server
 * implementation lives in `@payrail/http`.
 */
export class PayrailApi extends HttpApi.make("payrail")
  .add(CustomersApi)
  .add(InternalAccountsApi)
  .add(ExternalAccountsApi)
  .prefix(basePath)
  .add(SystemApi)
  .addError(InvalidInputBody)
  .addError(wire(HttpErrors.RouteNotFound, 404, "No such route"))
  .addError(wire(HttpErrors.MethodNotAllowed, 405, "The route does not accept this method"))
  .addError(wire(HttpErrors.PayloadTooLarge, 413, "The request body is too large"))
  .addError(wire(HttpErrors.UnsupportedMediaType, 415, "The request body must be application/json"))
  .addError(wire(HttpErrors.InternalError, 500, "Unexpected failure"))
  .addError(wire(Errors.StoreFailure, 500, "The store failed"))
  .annotate(OpenApi.Title, "Payrail API")
  .annotate(OpenApi.Version, basePath.slice(1))
  .annotate(
    OpenApi.Description,
    "Payments platform API. Platform endpoints use HTTP Basic with an API token; every error is `{code, reason, details?}`."
  )
  .annotate(OpenApi.Transform, withoutDecodeError) {}
