import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { ApiToken, ApiTokens, ApiTokenView, Errors } from "@payrail/core"
import { ErrorBody, FieldErrorReport, ListQuery } from "../kernel/index.js"
import * as Authentication from "./Authentication.js"
import { PlatformNotFoundBody } from "./ConfigApi.js"

const { reportFieldErrors } = FieldErrorReport

/** 404 `TOKEN_NOT_FOUND`. */
export const TokenNotFoundBody = ErrorBody.wire(Errors.TokenNotFound, 404, "No such API token on this platform")
/** 403 `FORBIDDEN`: the new token would hold a permission the caller's token lacks (`details.permissions`). */
export const PermissionNotHeldBody = ErrorBody.wire(
  Errors.PermissionNotHeld,
  403,
  "A token can only grant permissions it holds itself"
)

const TokenPath = reportFieldErrors(Schema.Struct({ tokenId: ApiToken.ApiTokenId }))

/** Query of `GET /tokens`: paging only. */
export const TokenListParams = reportFieldErrors(Schema.Struct({ ...ListQuery.pageParams }))

/** The platform's API tokens: create (MANAGE, secret shown once), list and get (VIEW), delete (MANAGE). */
export class TokensApi extends HttpApiGroup.make("tokens")
  .add(
    HttpApiEndpoint.post("create", "/tokens")
      .setPayload(reportFieldErrors(ApiTokens.CreateTokenRequest))
      .addSuccess(
        ApiTokenView.CreatedApiTokenView.annotations(
          HttpApiSchema.annotations<ApiTokenView.CreatedApiTokenView>({ status: 201 })
        )
      )
      .addError(PermissionNotHeldBody)
      .addError(PlatformNotFoundBody)
      .annotate(OpenApi.Summary, "Create an API token")
      .annotate(
        OpenApi.Description,
        "The new token holds a subset of the caller's permissions. `clientSecret` is in this answer only: it cannot be read again."
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/tokens")
      .setUrlParams(TokenListParams)
      .addSuccess(ListQuery.ListResponse(ApiTokenView.ApiTokenView, "ApiTokenListResponse"))
      .annotate(OpenApi.Summary, "List API tokens, newest first")
  )
  .add(
    HttpApiEndpoint.get("get", "/tokens/:tokenId")
      .setPath(TokenPath)
      .addSuccess(ApiTokenView.ApiTokenView)
      .addError(TokenNotFoundBody)
      .annotate(OpenApi.Summary, "Get an API token")
  )
  .add(
    HttpApiEndpoint.del("delete", "/tokens/:tokenId")
      .setPath(TokenPath)
      .addSuccess(Schema.Void, { status: 204 })
      .addError(TokenNotFoundBody)
      .annotate(OpenApi.Summary, "Delete an API token")
      .annotate(
        OpenApi.Description,
        "Every server refuses the token from the next request on. A token may delete itself (to finish a rotation)."
      )
  )
  .addError(Authentication.PermissionDeniedBody)
  .middleware(Authentication.Authentication)
  .annotate(OpenApi.Title, "API tokens")
  .annotate(OpenApi.Description, "Credentials of the platform API.") {}
