import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Customer, Errors, Verification } from "@payrail/core"
import { ErrorBody, FieldErrorReport, ListQuery } from "../kernel/index.js"
import { CustomersApi } from "../customers/index.js"
import { Authentication } from "../platforms/index.js"

const { wire } = ErrorBody
const { reportFieldErrors } = FieldErrorReport
const { ListResponse, pageParams } = ListQuery

/** 404 `NOT_FOUND`: no verification with this id on the caller's platform. */
export const VerificationNotFoundBody = wire(Errors.VerificationNotFound, 404, "No such verification on this platform")
/**
 * 400 `INVALID_INPUT` with `details.rule: "verification_final"`: the customer is already `APPROVED` or `REJECTED`,
 * which is final.
 */
export const VerificationFinalBody = wire(
  Errors.VerificationFinal,
  400,
  "The customer's verification is final (APPROVED or REJECTED)"
)
/** Body of `POST /verifications`. */
export const SubmitVerificationRequest = Schema.Struct({ customerId: Customer.CustomerId }).annotations({
  identifier: "VerificationSubmitRequest"
})

/** Query of `GET /verifications`: filters and paging. */
export const VerificationListParams = reportFieldErrors(
  Schema.Struct({
    customerId: Schema.optional(Customer.CustomerId),
    verificationStatus: Schema.optional(Verification.VerificationStatus),
    ...pageParams
  })
)

const VerificationPath = reportFieldErrors(Schema.Struct({ verificationId: Verification.VerificationId }))

/** Verifications: submit a customer's KYC/KYB packet and read the submissions. */
export class VerificationsApi extends HttpApiGroup.make("verifications")
  .add(
    HttpApiEndpoint.post("submit", "/verifications")
      .setPayload(reportFieldErrors(SubmitVerificationRequest))
      .addSuccess(Verification.Verification)
      .addError(VerificationFinalBody)
      .addError(CustomersApi.CustomerNotFoundBody)
      .addError(CustomersApi.CustomerDeletedBody)
      .annotate(OpenApi.Summary, "Submit a customer for verification")
      .annotate(
        OpenApi.Description,
        "Checks the customer's packet (fields, documents and, for a business, its beneficial owners) and records a new Verification (200). `RESOLVE_ERRORS` lists in `errors` what to fix, the customer's status unchanged; a complete packet is decided or sent to review (`PENDING_MANUAL_REVIEW`; `IN_PROGRESS` on production platforms). A customer already `APPROVED` or `REJECTED` answers 400 `INVALID_INPUT` with `details.rule: \"verification_final\"`."
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/verifications")
      .setUrlParams(VerificationListParams)
      .addSuccess(ListResponse(Verification.Verification, "VerificationListResponse"))
      .annotate(OpenApi.Summary, "List verifications, newest first")
  )
  .add(
    HttpApiEndpoint.get("get", "/verifications/:verificationId")
      .setPath(VerificationPath)
      .addSuccess(Verification.Verification)
      .addError(VerificationNotFoundBody)
      .annotate(OpenApi.Summary, "Get a verification")
  )
  .addError(Authentication.PermissionDeniedBody)
  .middleware(Authentication.Authentication)
  .annotate(OpenApi.Title, "Verifications")
  .annotate(OpenApi.Description, "KYC/KYB submissions of the platform's customers and their outcomes.") {}
