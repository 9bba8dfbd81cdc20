import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Errors, PlatformConfigUpdate, PlatformConfigView } from "@payrail/core"
import { ErrorBody, FieldErrorReport } from "../kernel/index.js"
import * as Authentication from "./Authentication.js"

/** 404 `NOT_FOUND`: the caller's platform no longer exists (deleted by the operator during the request). */
export const PlatformNotFoundBody = ErrorBody.wire(Errors.PlatformNotFound, 404, "The platform no longer exists")

/**
 * The caller's platform configuration: `GET /config` (VIEW) and `PATCH /config` (MANAGE). A change is seen by
 * every server instance from the next request on.
 */
export class ConfigApi extends HttpApiGroup.make("config")
  .add(
    HttpApiEndpoint.get("get", "/config")
      .addSuccess(PlatformConfigView.PlatformConfigView)
      .annotate(OpenApi.Summary, "Get the platform configuration")
  )
  .add(
    HttpApiEndpoint.patch("update", "/config")
      .setPayload(FieldErrorReport.reportFieldErrors(PlatformConfigUpdate.UpdatePlatformConfigRequest))
      .addSuccess(PlatformConfigView.PlatformConfigView)
      .annotate(OpenApi.Summary, "Update the platform configuration")
      .annotate(
        OpenApi.Description,
        "Omitted fields are unchanged. `supportedCurrencies` replaces the list; `embeddedWalletConfig` merges field by field; `feeConfigs` merges by `(feeType, sourceCurrency)` and a fee with both parts 0 is removed; `webhookEndpoint: null` removes the endpoint. `isRegulatedFinancialInstitution` and `skipPaperwork` can be changed only on sandbox platforms."
      )
  )
  .addError(PlatformNotFoundBody)
  .addError(Authentication.PermissionDeniedBody)
  .middleware(Authentication.Authentication)
  .annotate(OpenApi.Title, "Platform configuration")
  .annotate(
    OpenApi.Description,
    "Currencies, webhook endpoint, fees, embedded wallet and the platform's rule flags."
  ) {}
