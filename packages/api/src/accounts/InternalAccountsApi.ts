import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Currency, Customer, Errors, InternalAccount, Ledger, Money } from "@payrail/core"
import { ErrorBody, FieldErrorReport, ListQuery } from "../kernel/index.js"
import { Authentication } from "../platforms/index.js"

const { wire } = ErrorBody
const { reportFieldErrors } = FieldErrorReport
const { ListResponse, pageParams } = ListQuery

/** 404 `NOT_FOUND` for an internal account. */
export const InternalAccountNotFoundBody = wire(
  Errors.InternalAccountNotFound,
  404,
  "No such internal account on this platform"
)

const filters = {
  type: Schema.optional(InternalAccount.InternalAccountType),
  currency: Schema.optional(Currency.CurrencyCode)
}

/** Query of the internal account lists: `customerId`, `type`, `currency` and paging. */
export const InternalAccountListParams = reportFieldErrors(
  Schema.Struct({ customerId: Schema.optional(Customer.CustomerId), ...filters, ...pageParams })
)

const AccountPath = reportFieldErrors(Schema.Struct({ accountId: InternalAccount.InternalAccountId }))

/** The largest amount one sandbox funding credits, in minor units (10^11). */
export const maxFundingMinor = 100_000_000_000

/** Body of the sandbox funding call: a positive integer amount in the account currency's minor units, at most 10^11. */
export const FundRequest = reportFieldErrors(
  Schema.Struct({
    amount: Money.positiveAmountMinorUpTo(maxFundingMinor).annotations({ identifier: "SandboxFundAmountMinor" })
  }).annotations({ identifier: "SandboxFundRequest", parseOptions: { onExcessProperty: "error" } })
)

const accountList = ListResponse(InternalAccount.InternalAccountView, "InternalAccountListResponse")

/** Internal accounts of customers and of the platform, with ledger balances; sandbox funding. */
export class InternalAccountsApi extends HttpApiGroup.make("internalAccounts")
  .add(
    HttpApiEndpoint.get("list", "/internal-accounts")
      .setUrlParams(InternalAccountListParams)
      .addSuccess(accountList)
      .annotate(OpenApi.Summary, "List customers' internal accounts")
  )
  .add(
    HttpApiEndpoint.get("listForCustomers", "/customers/internal-accounts")
      .setUrlParams(InternalAccountListParams)
      .addSuccess(accountList)
      .annotate(OpenApi.Summary, "List customers' internal accounts (alias of GET /internal-accounts)")
  )
  .add(
    HttpApiEndpoint.get("get", "/internal-accounts/:accountId")
      .setPath(AccountPath)
      .addSuccess(InternalAccount.InternalAccountView)
      .addError(InternalAccountNotFoundBody)
      .annotate(OpenApi.Summary, "Get an internal account")
  )
  .add(
    HttpApiEndpoint.get("listForPlatform", "/platform/internal-accounts")
      .setUrlParams(reportFieldErrors(Schema.Struct(filters)))
      .addSuccess(Schema.Struct({ data: Schema.Array(InternalAccount.InternalAccountView) }))
      .annotate(OpenApi.Summary, "List the platform's own internal accounts (not paginated)")
  )
  .add(
    HttpApiEndpoint.post("fund", "/sandbox/internal-accounts/:accountId/fund")
      .setPath(AccountPath)
      .setHeaders(
        Schema.Struct({
          "idempotency-key": Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(255)))
        })
      )
      .setPayload(FundRequest)
      .addSuccess(InternalAccount.InternalAccountView)
      .addError(InternalAccountNotFoundBody)
      .addError(wire(Errors.SandboxOnly, 403, "Only sandbox platforms can fund accounts this way"))
      .addError(wire(Ledger.IdempotencyKeyReused, 409, "The Idempotency-Key was used for another request"))
      .addError(
        wire(Ledger.BalanceLimitExceeded, 409, "The account's balance would exceed 9007199254740991 minor units")
      )
      .annotate(OpenApi.Summary, "Sandbox: credit an internal account through the sandbox rail")
  )
  .addError(Authentication.PermissionDeniedBody)
  .middleware(Authentication.Authentication)
  .annotate(OpenApi.Title, "Internal accounts")
  .annotate(
    OpenApi.Description,
    "Balances held in the service for customers and for the platform, with sandbox funding."
  ) {}
