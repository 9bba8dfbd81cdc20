import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Transaction, TransferRequest } from "@payrail/core"
import { ExternalAccountsApi, InternalAccountsApi } from "../accounts/index.js"
import { FieldErrorReport } from "../kernel/index.js"
import { Authentication } from "../platforms/index.js"
import * as Pricing from "./PricingErrorBodies.js"
import {
  BalanceLimitBody,
  InsufficientFundsBody,
  QuoteTransitionRefusedBody,
  SelfPaymentBody,
  VerificationRequiredBody
} from "./QuotesApi.js"

const { reportFieldErrors } = FieldErrorReport

/** A transfer's success: the transaction (its own member schema, as every 201 needs). */
const Created = Transaction.Transaction.annotations({ identifier: "TransferTransaction" })

const deprecation =
  "Deprecated: `POST /quotes` with `immediatelyExecute` does the same in one currency or across currencies."

/** The same-currency transfers of the reference, kept for compatibility and marked deprecated. */
export class TransfersApi extends HttpApiGroup.make("transfers")
  .add(
    HttpApiEndpoint.post("transferOut", "/transfer-out")
      .setPayload(reportFieldErrors(TransferRequest.TransferOutRequest))
      .addSuccess(Created, { status: 201 })
      .annotate(OpenApi.Summary, "Transfer out to an external account (same currency)")
      .annotate(
        OpenApi.Description,
        `Pushes \`amount\` (default: the source's whole available balance) from an internal account to an external account of the same currency. ${deprecation}`
      )
      .annotate(OpenApi.Deprecated, true)
  )
  .add(
    HttpApiEndpoint.post("transferIn", "/transfer-in")
      .setPayload(reportFieldErrors(TransferRequest.TransferInRequest))
      .addSuccess(Created, { status: 201 })
      .annotate(OpenApi.Summary, "Transfer in from an external account (same currency)")
      .annotate(
        OpenApi.Description,
        `Pulls \`amount\` from an external account that can be pulled (a US account with ACH) into an internal account of the same currency. ${deprecation}`
      )
      .annotate(OpenApi.Deprecated, true)
  )
  // Both transfers refuse alike: unknown accounts, the same-currency and amount rules of quotes, and their balances.
  .addError(InternalAccountsApi.InternalAccountNotFoundBody)
  .addError(ExternalAccountsApi.NotFoundBody)
  .addError(InsufficientFundsBody)
  .addError(SelfPaymentBody)
  .addError(BalanceLimitBody)
  .addError(Pricing.AmountOutOfRangeBody)
  .addError(Pricing.TransactionSizeLimitExceededBody)
  .addError(Pricing.InvalidCurrencyBody)
  .addError(Pricing.InvalidAmountBody)
  .addError(Pricing.QuoteRateUnavailableBody)
  .addError(VerificationRequiredBody)
  .addError(QuoteTransitionRefusedBody)
  .addError(Authentication.PermissionDeniedBody)
  .middleware(Authentication.Authentication)
  .annotate(OpenApi.Title, "Transfers (deprecated)")
  .annotate(OpenApi.Description, "Same-currency transfers; quotes supersede them.") {}
