import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Customer, KycLink, KycLinkErrors } from "@payrail/core"
import { ErrorBody, FieldErrorReport } from "../kernel/index.js"
import { CustomersApi } from "../customers/index.js"
import { Authentication } from "../platforms/index.js"

const CustomerPath = FieldErrorReport.reportFieldErrors(Schema.Struct({ customerId: Customer.CustomerId }))

/** The link, answered with 201 (a copy of the class's schema, so no other endpoint's response becomes a 201). */
const CreatedKycLink = KycLink.KycLinkResponse.annotations(
  HttpApiSchema.annotations<KycLink.KycLinkResponse>({ status: 201 })
)

/** 409 `CONTACT_VERIFICATION_INCOMPLETE`: the customer's region verifies contacts and one is not verified yet. */
export const ContactVerificationIncompleteBody = ErrorBody.wire(
  KycLinkErrors.ContactVerificationIncomplete,
  409,
  "The customer's region verifies contacts and its email or phone is not verified yet"
)

/**
 * Hosted verification links: a single-use, expiring URL of the page where the customer (or a person of the
 * business) completes what the verification still needs and submits it.
 */
export class KycLinksApi extends HttpApiGroup.make("kycLinks")
  .add(
    HttpApiEndpoint.post("create", "/customers/:customerId/kyc-link")
      .setPath(CustomerPath)
      .setPayload(FieldErrorReport.reportFieldErrors(KycLink.CreateKycLinkRequest))
      .addSuccess(CreatedKycLink)
      .addError(CustomersApi.CustomerNotFoundBody)
      .addError(CustomersApi.CustomerDeletedBody)
      .addError(ContactVerificationIncompleteBody)
      .annotate(OpenApi.Summary, "Create a hosted verification link for a customer")
      .annotate(
        OpenApi.Description,
        "Answers `kycUrl`, the absolute URL of the verification page this server hosts (`provider` is always " +
          "`PAYRAIL`: the reference server serves its own page, outside the versioned API, at `/verify/<secret>`). " +
          "The page shows what the customer's verification still needs, in the terms of a verification's `errors[]`, " +
          "and lets the person complete the missing fields, upload documents, declare a business's beneficial owners " +
          "and submit. The link is single-use: submitting spends it (reloading before that is fine). It expires 24 " +
          "hours after creation (`expiresAt`, the platform's clock); earlier links stay valid. Once the person " +
          "submits, the page redirects (303) to `redirectUri`, an absolute http(s) URL, or shows a thank-you page."
      )
  )
  .addError(CustomersApi.PermissionDeniedBody)
  .middleware(Authentication.Authentication)
  .annotate(OpenApi.Title, "Verification links")
  .annotate(OpenApi.Description, "The hosted verification page, reached through a single-use, expiring link.") {}
