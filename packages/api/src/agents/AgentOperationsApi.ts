import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import {
  AgentAction,
  AgentErrors,
  Currency,
  ExternalAccount,
  ExternalAccountRequest,
  InternalAccount,
  Money,
  Quote,
  QuoteRequest,
  TransactionFeed,
  TransferRequest
} from "@payrail/core"
import { ExternalAccountsApi, InternalAccountsApi } from "../accounts/index.js"
import { CustomersApi } from "../customers/index.js"
import { ErrorBody, FieldErrorReport, ListQuery, SignedRetryContract } from "../kernel/index.js"
import { PricingErrorBodies as Pricing, QuotesApi, ReceiverApi, TransactionsApi } from "../payments/index.js"
import * as AgentApprovalsApi from "./AgentApprovalsApi.js"
import { AgentAuthentication } from "./AgentAuthentication.js"

const { wire } = ErrorBody
const { reportFieldErrors } = FieldErrorReport
const { ListResponse, pageParams } = ListQuery

/** 403 `FORBIDDEN` with `details.rule: "requires_permission"`: the agent's policy lacks the operation's permission. */
export const AgentPermissionDeniedBody = wire(
  AgentErrors.AgentPermissionDenied,
  403,
  "The agent's policy lacks the permission this operation needs (`details.requiredPermission`)"
)
/** 403 `FORBIDDEN` with `details.rule` naming the policy rule that refuses the action (pause, account, limit). */
export const AgentPolicyDeniedBody = wire(
  AgentErrors.AgentPolicyDenied,
  403,
  "The agent's policy refuses the action (`details.rule`: paused, account not allowed, or a limit)"
)

// Named `accountId` as on the platform's external-account paths: a 404 names it back as `details.accountId`.
const ExternalAccountPath = reportFieldErrors(Schema.Struct({ accountId: ExternalAccount.ExternalAccountId }))
const QuotePath = reportFieldErrors(Schema.Struct({ quoteId: Quote.QuoteId }))
const ActionPath = reportFieldErrors(Schema.Struct({ actionId: AgentAction.AgentActionId }))

/** Query of `GET /agents/me/transactions`: the filters of `GET /transactions` but the customer ones, and paging. */
export const AgentTransactionListParams = reportFieldErrors(
  Schema.Struct({ ...TransactionsApi.transactionFilters, ...pageParams })
)

/** Body of `POST /agents/me/transfer-out`: the platform's body with `amount` required. */
export const AgentTransferOutRequest = Schema.Struct({
  ...TransferRequest.TransferOutRequest.fields,
  amount: Money.PositiveAmountMinor
}).annotations({ identifier: "AgentTransferOutRequest", parseOptions: { errors: "all", onExcessProperty: "error" } })

/** Body of `POST /agents/me/transfer-in`: the platform's body with `amount` required. */
export const AgentTransferInRequest = Schema.Struct({
  ...TransferRequest.TransferInRequest.fields,
  amount: Money.PositiveAmountMinor
}).annotations({ identifier: "AgentTransferInRequest", parseOptions: { errors: "all", onExcessProperty: "error" } })

const prefix = "/agents/me"

const submission =
  "Evaluated against the agent's policy as it stands: a paused agent, an account the policy does not allow, or an " +
  "amount over the per-transaction limit is 403 `FORBIDDEN` (`details.rule`). In `AUTO` mode an amount below the " +
  "approval threshold executes at once (`APPROVED`, with its `transaction`) if the daily and monthly limits allow " +
  "it; anything else waits for the platform (`PENDING_APPROVAL`, no `transaction`; poll `GET /agents/me/actions/{actionId}`)."

/** The refusals of a payment that the platform's quote and transfer endpoints declare, and the agent's two 403s. */
const PaymentRefusalBodies = Schema.Union(
  InternalAccountsApi.InternalAccountNotFoundBody,
  ExternalAccountsApi.NotFoundBody,
  QuotesApi.SelfPaymentBody,
  QuotesApi.VerificationRequiredBody,
  QuotesApi.InsufficientFundsBody,
  QuotesApi.QuoteTransitionRefusedBody,
  QuotesApi.BalanceLimitBody,
  Pricing.QuoteRateUnavailableBody,
  Pricing.InvalidCurrencyBody,
  Pricing.InvalidAmountBody,
  Pricing.AmountOutOfRangeBody,
  Pricing.TransactionSizeLimitExceededBody,
  AgentPermissionDeniedBody,
  AgentPolicyDeniedBody
)

/**
 * The agent API (`/agents/me/...`, bearer `AgentAuth`): everything acts for the agent's customer, under its policy.
 * Another customer's ids are 404 as unknown ones; a permission the policy lacks is 403 `FORBIDDEN`
 * (`requires_permission`). `GET /agents/me` (the agent itself) is in the agents group.
 */
export class AgentOperationsApi extends HttpApiGroup.make("agentOperations")
  .add(
    HttpApiEndpoint.get("listExternalAccounts", `${prefix}/external-accounts`)
      .setUrlParams(
        reportFieldErrors(Schema.Struct({ currency: Schema.optional(Currency.CurrencyCode), ...pageParams }))
      )
      .addSuccess(ListResponse(ExternalAccount.ExternalAccount, "ExternalAccountListResponse"))
      .addError(AgentPermissionDeniedBody)
      .annotate(OpenApi.Summary, "List the customer's external accounts (MANAGE_EXTERNAL_ACCOUNTS)")
  )
  .add(
    HttpApiEndpoint.post("createExternalAccount", `${prefix}/external-accounts`)
      .setPayload(reportFieldErrors(ExternalAccountRequest.CreateExternalAccountRequest))
      .addSuccess(ExternalAccount.ExternalAccount, { status: 201 })
      .addError(AgentPermissionDeniedBody)
      .addError(CustomersApi.CustomerNotFoundBody)
      .addError(ExternalAccountsApi.ExistsBody)
      .addError(ExternalAccountsApi.InvalidBankAccountBody)
      .annotate(OpenApi.Summary, "Add an external account of the customer (MANAGE_EXTERNAL_ACCOUNTS)")
      .annotate(
        OpenApi.Description,
        "The body of `POST /customers/external-accounts`; `customerId` is optional and inferred. Another customer's `customerId` is 404 `USER_NOT_FOUND`, as an unknown one."
      )
  )
  .add(
    HttpApiEndpoint.get("getExternalAccount", `${prefix}/external-accounts/:accountId`)
      .setPath(ExternalAccountPath)
      .addSuccess(ExternalAccount.ExternalAccount)
      .addError(AgentPermissionDeniedBody)
      .addError(ExternalAccountsApi.NotFoundBody)
      .annotate(OpenApi.Summary, "Get an external account of the customer (MANAGE_EXTERNAL_ACCOUNTS)")
  )
  .add(
    HttpApiEndpoint.del("deleteExternalAccount", `${prefix}/external-accounts/:accountId`)
      .setPath(ExternalAccountPath)
      .addSuccess(Schema.Void, { status: 204 })
      .addError(AgentPermissionDeniedBody)
      .addError(ExternalAccountsApi.NotFoundBody)
      .annotate(OpenApi.Summary, "Delete an external account of the customer (MANAGE_EXTERNAL_ACCOUNTS)")
  )
  .add(
    HttpApiEndpoint.get("listInternalAccounts", `${prefix}/internal-accounts`)
      .setUrlParams(
        reportFieldErrors(
          Schema.Struct({
            currency: Schema.optional(Currency.CurrencyCode),
            type: Schema.optional(InternalAccount.InternalAccountType),
            ...pageParams
          })
        )
      )
      .addSuccess(ListResponse(InternalAccount.InternalAccountView, "InternalAccountListResponse"))
      .annotate(OpenApi.Summary, "List the customer's internal accounts, with balances")
  )
  .add(
    HttpApiEndpoint.get("listTransactions", `${prefix}/transactions`)
      .setUrlParams(AgentTransactionListParams)
      .addSuccess(TransactionsApi.TransactionListResponse)
      .addError(AgentPermissionDeniedBody)
      .annotate(OpenApi.Summary, "List the customer's transactions (VIEW_TRANSACTIONS)")
  )
  .add(
    HttpApiEndpoint.get("getTransaction", `${prefix}/transactions/:transactionId`)
      .setPath(TransactionsApi.AnyTransactionPath)
      .addSuccess(TransactionFeed.FeedTransaction)
      .addError(AgentPermissionDeniedBody)
      .addError(TransactionsApi.TransactionNotFoundBody)
      .annotate(OpenApi.Summary, "Get a transaction of the customer (VIEW_TRANSACTIONS)")
  )
  .add(
    HttpApiEndpoint.post("createQuote", `${prefix}/quotes`)
      .setPayload(reportFieldErrors(QuoteRequest.CreateQuoteRequest))
      .addSuccess(Quote.Quote, { status: 201 })
      .addError(PaymentRefusalBodies)
      .addError(ReceiverApi.InvalidUmaAddressBody)
      .addError(ReceiverApi.UmaNotFoundBody)
      .addError(ReceiverApi.LookupNotFoundBody)
      .addError(ReceiverApi.MissingMandatoryUserInfoBody)
      .annotate(OpenApi.Summary, "Create a quote from one of the customer's accounts (CREATE_QUOTES)")
      .annotate(
        OpenApi.Description,
        "The body of `POST /quotes`; the source must be one of the customer's accounts that the policy allows. Executing it is a separate, policy-checked step (`immediatelyExecute` is refused)."
      )
  )
  .add(
    HttpApiEndpoint.get("getQuote", `${prefix}/quotes/:quoteId`)
      .setPath(QuotePath)
      .addSuccess(Quote.Quote)
      .addError(QuotesApi.QuoteNotFoundBody)
      .annotate(OpenApi.Summary, "Get a quote this agent created")
  )
  .add(
    HttpApiEndpoint.post("executeQuote", `${prefix}/quotes/:quoteId/execute`)
      .setPath(QuotePath)
      .addSuccess(AgentAction.AgentAction)
      .addError(PaymentRefusalBodies)
      .addError(QuotesApi.QuoteNotFoundBody)
      .addError(QuotesApi.QuoteExpiredBody)
      .addError(SignedRetryContract.WalletSignatureMissingBody)
      .annotate(OpenApi.Summary, "Execute a quote under the policy (EXECUTE_QUOTES)")
      .annotate(OpenApi.Description, `Answers the action. ${submission}`)
  )
  .add(
    HttpApiEndpoint.post("transferOut", `${prefix}/transfer-out`)
      .setPayload(reportFieldErrors(AgentTransferOutRequest))
      .addSuccess(AgentAction.AgentAction, { status: 201 })
      .addError(PaymentRefusalBodies)
      .annotate(OpenApi.Summary, "Transfer out to an external account of the customer (CREATE_TRANSFERS)")
      .annotate(OpenApi.Description, `The body of \`POST /transfer-out\` with \`amount\` required. ${submission}`)
  )
  .add(
    HttpApiEndpoint.post("transferIn", `${prefix}/transfer-in`)
      .setPayload(reportFieldErrors(AgentTransferInRequest))
      .addSuccess(AgentAction.AgentAction, { status: 201 })
      .addError(PaymentRefusalBodies)
      .annotate(OpenApi.Summary, "Transfer in from an external account of the customer (CREATE_TRANSFERS)")
      .annotate(OpenApi.Description, `The body of \`POST /transfer-in\`. ${submission}`)
  )
  .add(
    HttpApiEndpoint.get("listActions", `${prefix}/actions`)
      .setUrlParams(
        reportFieldErrors(Schema.Struct({ status: Schema.optional(AgentAction.AgentActionStatus), ...pageParams }))
      )
      .addSuccess(ListResponse(AgentAction.AgentAction, "AgentActionListResponse"))
      .annotate(OpenApi.Summary, "List this agent's actions, newest first")
  )
  .add(
    HttpApiEndpoint.get("getAction", `${prefix}/actions/:actionId`)
      .setPath(ActionPath)
      .addSuccess(AgentAction.AgentAction)
      .addError(AgentApprovalsApi.AgentActionNotFoundBody)
      .annotate(OpenApi.Summary, "Get one of this agent's actions (poll it for the platform's decision)")
  )
  .middleware(AgentAuthentication)
  .annotate(OpenApi.Title, "Agent operations")
  .annotate(
    OpenApi.Description,
    "What an agent does with its access token (`Authorization: Bearer gat_…`): always for its customer, under its policy."
  ) {}
