import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import {
  CountryCode,
  Currency,
  Customer,
  CustomerFields,
  CustomerRequest,
  Errors,
  FieldFormat,
  UmaAddress,
  WalletErrors
} from "@payrail/core"
import { ErrorBody, FieldErrorReport, ListQuery, SignedRetryContract } from "../kernel/index.js"
import { Authentication } from "../platforms/index.js"

const { wire } = ErrorBody
const { reportFieldErrors } = FieldErrorReport
const { ListResponse, pageParams } = ListQuery

/** 409 `EMAIL_OTP_EMAIL_ALREADY_EXISTS`: another customer's `EMAIL_OTP` credential on the platform has the email. */
export const EmailOtpEmailAlreadyExistsBody = wire(
  WalletErrors.EmailOtpEmailAlreadyExists,
  409,
  "Another customer's EMAIL_OTP credential already uses this email"
)
/** 409 `EMAIL_OTP_CREDENTIAL_SET_CHANGED`: the customer's `EMAIL_OTP` credentials changed during the signed change. */
export const EmailOtpCredentialSetChangedBody = wire(
  WalletErrors.EmailOtpCredentialSetChanged,
  409,
  "The customer's EMAIL_OTP credentials changed during the signed email change; nothing changed"
)

/** 404 `USER_NOT_FOUND`. */
export const CustomerNotFoundBody = wire(Errors.CustomerNotFound, 404, "No such customer on this platform")
/** 410 `CUSTOMER_DELETED`: the customer was deleted; it can be read but not changed. */
export const CustomerDeletedBody = wire(Errors.CustomerDeleted, 410, "The customer has been deleted")
/** 409 `CONFLICT`. */
export const PlatformCustomerIdTakenBody = wire(
  Errors.PlatformCustomerIdTaken,
  409,
  "platformCustomerId already in use"
)
/** 409 `UMA_ADDRESS_EXISTS`: another live customer of the platform has the UMA address. */
export const UmaAddressTakenBody = wire(
  Errors.UmaAddressTaken,
  409,
  "Another customer of this platform has this UMA address"
)
/** 400 `END_USER_TERMS_VERSION_NOT_FOUND`: `endUserTermsConsent.termsVersion` is not the current terms version. */
export const EndUserTermsVersionNotFoundBody = wire(
  Errors.EndUserTermsVersionNotFound,
  400,
  "endUserTermsConsent.termsVersion is not the current End User Terms version (GET /customers/end-user-terms)"
)
/** 403 `FORBIDDEN` (defined with the permissions it enforces, `Authentication.PermissionDeniedBody`). */
export const PermissionDeniedBody = Authentication.PermissionDeniedBody

const CustomerPath = reportFieldErrors(Schema.Struct({ customerId: Customer.CustomerId }))

const Bound = ListQuery.TimestampBound

/** Query of `GET /customers`: filters (timestamp bounds inclusive) and paging. */
export const CustomerListParams = reportFieldErrors(
  Schema.Struct({
    platformCustomerId: Schema.optional(FieldFormat.Text(255)),
    customerType: Schema.optional(CustomerFields.CustomerType),
    region: Schema.optional(CountryCode.CountryCode),
    email: Schema.optional(FieldFormat.Email),
    /** The customer with this UMA address (any letter case). */
    umaAddress: Schema.optional(UmaAddress.FromInput),
    /** Customers whose `currencies` hold this currency. */
    currency: Schema.optional(Currency.CurrencyCode),
    createdAfter: Schema.optional(Bound),
    createdBefore: Schema.optional(Bound),
    updatedAfter: Schema.optional(Bound),
    updatedBefore: Schema.optional(Bound),
    /** `true` lists deleted customers too; by default they are left out. */
    isIncludingDeleted: Schema.optional(Schema.BooleanFromString),
    ...pageParams
  })
)

/*
 * The created customer is answered with 201. The status sits on each union member: HttpApi caches response
 * encoders by member schema across endpoints (so the members are copies of their own, or every customer response
 * would become a 201), and its OpenAPI generator and typed client read the status per member, not from the union.
 */
const CreatedCustomer = Schema.Union(
  Customer.IndividualCustomer.annotations(HttpApiSchema.annotations<Customer.IndividualCustomer>({ status: 201 })),
  Customer.BusinessCustomer.annotations(HttpApiSchema.annotations<Customer.BusinessCustomer>({ status: 201 }))
)

/** Customers: create, read, list and update individuals and businesses of the caller's platform. */
export class CustomersApi extends HttpApiGroup.make("customers")
  .add(
    HttpApiEndpoint.post("create", "/customers")
      .setPayload(reportFieldErrors(CustomerRequest.CreateCustomerRequest))
      .addSuccess(CreatedCustomer)
      .addError(PlatformCustomerIdTakenBody)
      .addError(UmaAddressTakenBody)
      .addError(EndUserTermsVersionNotFoundBody)
      .annotate(OpenApi.Summary, "Create a customer")
      .annotate(
        OpenApi.Description,
        "`umaAddress` is optional: when absent one is generated from the customer's id (`$<uuid>@<platform umaDomain>`). A given address is stored in lowercase, must be unique among the platform's live customers (409 `UMA_ADDRESS_EXISTS`) and never changes afterwards. 409 `CONFLICT` when a live customer already has the `platformCustomerId`."
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/customers")
      .setUrlParams(CustomerListParams)
      .addSuccess(ListResponse(Customer.Customer, "CustomerListResponse"))
      .annotate(OpenApi.Summary, "List customers, newest first")
  )
  .add(
    HttpApiEndpoint.get("get", "/customers/:customerId")
      .setPath(CustomerPath)
      .addSuccess(Customer.Customer)
      .addError(CustomerNotFoundBody)
      .annotate(OpenApi.Summary, "Get a customer")
  )
  .add(
    HttpApiEndpoint.patch("update", "/customers/:customerId")
      .setPath(CustomerPath)
      .setHeaders(SignedRetryContract.WalletRequestHeaders)
      .setPayload(reportFieldErrors(CustomerRequest.UpdateCustomerRequest))
      .addSuccess(Customer.Customer)
      .addSuccess(SignedRetryContract.SignedRequestChallenge, { status: 202 })
      .addError(SignedRetryContract.SignedRetryRefusedBody)
      .addError(EmailOtpEmailAlreadyExistsBody)
      .addError(EmailOtpCredentialSetChangedBody)
      .addError(CustomerNotFoundBody)
      .addError(CustomerDeletedBody)
      .addError(EndUserTermsVersionNotFoundBody)
      .annotate(OpenApi.Summary, "Update a customer")
      .annotate(
        OpenApi.Description,
        "Given fields replace the stored ones; `customerType` must match. Changing the `email` of a customer whose embedded wallet has an `EMAIL_OTP` credential is a signed retry (the first request answers 202 with a challenge; stamp its `payloadToSign` with an active session of that wallet and re-send the same request with `Service-Wallet-Signature` and `Request-Id`): the customer and every such credential take the new email together, or nothing changes. 409 `EMAIL_OTP_EMAIL_ALREADY_EXISTS` when another customer's `EMAIL_OTP` credential on the platform has that email. Other updates ignore the wallet headers."
      )
  )
  .add(
    HttpApiEndpoint.del("delete", "/customers/:customerId")
      .setPath(CustomerPath)
      .addSuccess(Customer.Customer)
      .addError(CustomerNotFoundBody)
      .addError(CustomerDeletedBody)
      .annotate(OpenApi.Summary, "Delete a customer")
      .annotate(
        OpenApi.Description,
        "Soft delete: answers the customer with `isDeleted: true`. It can still be read, is left out of `GET /customers` unless `isIncludingDeleted=true`, and its `platformCustomerId` can be used again; nothing in the ledger or its accounts is removed. 410 `CUSTOMER_DELETED` if it was already deleted; changes to a deleted customer answer 410 too."
      )
  )
  .addError(PermissionDeniedBody)
  .middleware(Authentication.Authentication)
  .annotate(OpenApi.Title, "Customers")
  .annotate(OpenApi.Description, "Individuals and businesses of the platform, with their verification status.") {}
