import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { BeneficialOwner, BeneficialOwnerErrors, BeneficialOwnerRequest, Customer } from "@payrail/core"
import { CustomersApi } from "../customers/index.js"
import { ErrorBody, FieldErrorReport, ListQuery } from "../kernel/index.js"
import { Authentication } from "../platforms/index.js"

const { wire } = ErrorBody
const { reportFieldErrors } = FieldErrorReport
const { ListResponse, pageParams } = ListQuery

/** 404 `NOT_FOUND`: no beneficial owner with this id on the caller's platform. */
export const BeneficialOwnerNotFoundBody = wire(
  BeneficialOwnerErrors.BeneficialOwnerNotFound,
  404,
  "No such beneficial owner on this platform"
)

const OwnerPath = reportFieldErrors(Schema.Struct({ beneficialOwnerId: BeneficialOwner.BeneficialOwnerId }))

/** Query of `GET /beneficial-owners`: the business customer (required) and paging. */
export const BeneficialOwnerListParams = reportFieldErrors(
  Schema.Struct({ customerId: Customer.CustomerId, ...pageParams })
)

// A copy of the record's schema carrying the 201, since HttpApi caches response encoders per schema (see
// `CustomersApi`).
const CreatedBeneficialOwner = BeneficialOwner.BeneficialOwner.annotations(
  HttpApiSchema.annotations<BeneficialOwner.BeneficialOwner>({ status: 201 })
)

/**
 * Beneficial owners: the people who own or control a business customer. Each one's KYC status starts
 * `UNVERIFIED` and resolves with the business's verification; the tax `identifier` is write-only.
 */
export class BeneficialOwnersApi extends HttpApiGroup.make("beneficialOwners")
  .add(
    HttpApiEndpoint.post("create", "/beneficial-owners")
      .setPayload(reportFieldErrors(BeneficialOwnerRequest.CreateBeneficialOwnerRequest))
      .addSuccess(CreatedBeneficialOwner)
      .addError(CustomersApi.CustomerNotFoundBody)
      .addError(CustomersApi.CustomerDeletedBody)
      .annotate(OpenApi.Summary, "Add a beneficial owner to a business customer")
      .annotate(
        OpenApi.Description,
        "`customerId` must be a BUSINESS customer of the platform (an individual is a 400 on `customerId`). The owner is created `UNVERIFIED`; its KYC resolves when the business's verification is decided. `personalInfo.identifier` is stored but never returned."
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/beneficial-owners")
      .setUrlParams(BeneficialOwnerListParams)
      .addSuccess(ListResponse(BeneficialOwner.BeneficialOwner, "BeneficialOwnerListResponse"))
      .annotate(OpenApi.Summary, "List a business customer's beneficial owners, newest first")
  )
  .add(
    HttpApiEndpoint.get("get", "/beneficial-owners/:beneficialOwnerId")
      .setPath(OwnerPath)
      .addSuccess(BeneficialOwner.BeneficialOwner)
      .addError(BeneficialOwnerNotFoundBody)
      .annotate(OpenApi.Summary, "Get a beneficial owner")
  )
  .add(
    HttpApiEndpoint.patch("update", "/beneficial-owners/:beneficialOwnerId")
      .setPath(OwnerPath)
      .setPayload(reportFieldErrors(BeneficialOwnerRequest.UpdateBeneficialOwnerRequest))
      .addSuccess(BeneficialOwner.BeneficialOwner)
      .addError(BeneficialOwnerNotFoundBody)
      .addError(CustomersApi.CustomerDeletedBody)
      .annotate(OpenApi.Summary, "Update a beneficial owner")
      .annotate(
        OpenApi.Description,
        "Given fields replace the stored ones; within `personalInfo` too. The KYC status stays as it is."
      )
  )
  .addError(CustomersApi.PermissionDeniedBody)
  .middleware(Authentication.Authentication)
  .annotate(OpenApi.Title, "Beneficial owners")
  .annotate(OpenApi.Description, "The people who own or control a business customer.") {}
