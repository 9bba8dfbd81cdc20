import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema, Struct } from "effect"
import {
  Currency,
  Customer,
  Errors,
  ExternalAccount,
  ExternalAccountRepo,
  ExternalAccountRequest,
  ExternalAccountStatus,
  NameVerificationProvider,
  ScaErrors
} from "@payrail/core"
import { CustomersApi } from "../customers/index.js"
import { ErrorBody, FieldErrorReport, ListQuery } from "../kernel/index.js"
import { Authentication } from "../platforms/index.js"

const { wire } = ErrorBody
const { reportFieldErrors } = FieldErrorReport
const { ListResponse, pageParams } = ListQuery

/** 404 `NOT_FOUND`: no such external account. */
export const NotFoundBody = wire(Errors.ExternalAccountNotFound, 404, "No such external account")
/** 409 `BENEFICIARY_TRUSTED`: a trusted beneficiary is untrusted (`/untrust` and its `/confirm`) before it is deleted. */
export const BeneficiaryTrustedBody = wire(
  ScaErrors.BeneficiaryTrusted,
  409,
  "The external account is a trusted beneficiary; untrust it first"
)
/** 409 `CONFLICT`: the owner already has this external account. */
export const ExistsBody = wire(
  ExternalAccountRepo.ExternalAccountExists,
  409,
  "The owner already has this external account"
)
/** 400 `INVALID_BANK_ACCOUNT`: the rail rejects the bank account. */
export const InvalidBankAccountBody = wire(
  NameVerificationProvider.InvalidBankAccount,
  400,
  "The rail rejects the bank account"
)
const ChallengeUnavailableBody = wire(
  Errors.OwnershipChallengeUnavailable,
  409,
  "No ownership challenge can be started or answered now"
)
const InvalidTransitionBody = wire(
  ExternalAccountStatus.InvalidTransition,
  409,
  "The account's status does not allow this"
)

const AccountPath = reportFieldErrors(Schema.Struct({ accountId: ExternalAccount.ExternalAccountId }))
const accountList = ListResponse(ExternalAccount.ExternalAccount, "ExternalAccountListResponse")

/** Body of `POST /platform/external-accounts`: the customer body without `customerId`. */
export const CreatePlatformExternalAccountRequest = Schema.Struct(
  Struct.omit(ExternalAccountRequest.CreateExternalAccountRequest.fields, "customerId")
).annotations({
  identifier: "CreatePlatformExternalAccountRequest",
  parseOptions: { errors: "all", onExcessProperty: "error" }
})

/** The endpoints of one owner kind (`/customers/external-accounts` or `/platform/external-accounts`). */
const endpoints = <const Name extends string>(prefix: `/${string}`, name: Name) => ({
  create: HttpApiEndpoint.post(`create${name}`, prefix)
    .addSuccess(ExternalAccount.ExternalAccount, { status: 201 })
    .addError(ExistsBody)
    .addError(InvalidBankAccountBody),
  list: HttpApiEndpoint.get(`list${name}`, prefix).addSuccess(accountList),
  get: HttpApiEndpoint.get(`get${name}`, `${prefix}/:accountId` as const)
    .setPath(AccountPath)
    .addSuccess(ExternalAccount.ExternalAccount)
    .addError(NotFoundBody),
  delete: HttpApiEndpoint.del(`delete${name}`, `${prefix}/:accountId` as const)
    .setPath(AccountPath)
    .addSuccess(Schema.Void, { status: 204 })
    .addError(NotFoundBody),
  challenge: HttpApiEndpoint.post(`challenge${name}`, `${prefix}/:accountId/challenge` as const)
    .setPath(AccountPath)
    .setPayload(reportFieldErrors(ExternalAccountRequest.OwnershipChallengeRequest))
    .addSuccess(ExternalAccountRequest.OwnershipChallenge, { status: 201 })
    .addError(NotFoundBody)
    .addError(ChallengeUnavailableBody)
    .addError(InvalidTransitionBody),
  verify: HttpApiEndpoint.post(`verify${name}`, `${prefix}/:accountId/verify` as const)
    .setPath(AccountPath)
    .setPayload(reportFieldErrors(ExternalAccountRequest.OwnershipVerificationRequest))
    .addSuccess(ExternalAccount.ExternalAccount)
    .addError(NotFoundBody)
    .addError(ChallengeUnavailableBody)
    .addError(InvalidTransitionBody)
})

const customer = endpoints("/customers/external-accounts", "ForCustomers")
const platform = endpoints("/platform/external-accounts", "ForPlatform")

/** External accounts of customers and of the platform: create, list, read, delete, prove wallet ownership. */
export class ExternalAccountsApi extends HttpApiGroup.make("externalAccounts")
  .add(
    customer.create
      .setPayload(reportFieldErrors(ExternalAccountRequest.CreateExternalAccountRequest))
      .addError(CustomersApi.CustomerNotFoundBody)
      .annotate(OpenApi.Summary, "Create an external account (of a customer, or of the platform without customerId)")
  )
  .add(
    customer.list
      .setUrlParams(
        reportFieldErrors(
          Schema.Struct({
            customerId: Schema.optional(Customer.CustomerId),
            currency: Schema.optional(Currency.CurrencyCode),
            ...pageParams
          })
        )
      )
      .annotate(OpenApi.Summary, "List customers' external accounts")
  )
  .add(customer.get.annotate(OpenApi.Summary, "Get a customer's external account"))
  .add(
    customer.delete.addError(BeneficiaryTrustedBody).annotate(OpenApi.Summary, "Delete a customer's external account")
  )
  .add(customer.challenge.annotate(OpenApi.Summary, "Start a wallet ownership challenge"))
  .add(customer.verify.annotate(OpenApi.Summary, "Answer a wallet ownership challenge"))
  .add(
    platform.create
      .setPayload(reportFieldErrors(CreatePlatformExternalAccountRequest))
      .addError(CustomersApi.CustomerNotFoundBody)
      .annotate(OpenApi.Summary, "Create an external account of the platform")
  )
  .add(
    platform.list
      .setUrlParams(
        reportFieldErrors(Schema.Struct({ currency: Schema.optional(Currency.CurrencyCode), ...pageParams }))
      )
      .annotate(OpenApi.Summary, "List the platform's external accounts")
  )
  .add(platform.get.annotate(OpenApi.Summary, "Get an external account of the platform"))
  .add(platform.delete.annotate(OpenApi.Summary, "Delete an external account of the platform"))
  .add(platform.challenge.annotate(OpenApi.Summary, "Start a wallet ownership challenge"))
  .add(platform.verify.annotate(OpenApi.Summary, "Answer a wallet ownership challenge"))
  .addError(Authentication.PermissionDeniedBody)
  .middleware(Authentication.Authentication)
  .annotate(OpenApi.Title, "External accounts")
  .annotate(
    OpenApi.Description,
    "Bank accounts, wallets and Lightning destinations of customers and of the platform, with ownership verification."
  ) {}
