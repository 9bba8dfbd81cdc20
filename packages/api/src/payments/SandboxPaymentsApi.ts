import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Currency, Money, Quote, Transaction } from "@payrail/core"
import { FieldErrorReport } from "../kernel/index.js"
import { Authentication, SandboxClockApi } from "../platforms/index.js"
import { BalanceLimitBody, QuoteExpiredBody, QuoteNotFoundBody, QuoteTransitionRefusedBody } from "./QuotesApi.js"

/** Body of `POST /sandbox/send`: the quote the payer funds, in its sending currency, and optionally another amount. */
export const SandboxSendRequest = FieldErrorReport.reportFieldErrors(
  Schema.Struct({
    quoteId: Quote.QuoteId,
    currencyCode: Currency.CurrencyCode,
    currencyAmount: Schema.optional(Money.PositiveAmountMinor)
  }).annotations({
    identifier: "SandboxSendRequest",
    parseOptions: { errors: "all", onExcessProperty: "error" }
  })
)

/** The sandbox's payer: funds a real-time funded quote. */
export class SandboxPaymentsApi extends HttpApiGroup.make("sandboxPayments")
  .add(
    HttpApiEndpoint.post("send", "/sandbox/send")
      .setPayload(SandboxSendRequest)
      .addSuccess(Transaction.Transaction)
      .addError(QuoteNotFoundBody)
      .addError(QuoteExpiredBody)
      .addError(QuoteTransitionRefusedBody)
      .addError(BalanceLimitBody)
      .addError(SandboxClockApi.SandboxOnlyBody)
      .annotate(OpenApi.Summary, "Sandbox: pay a real-time funded quote")
      .annotate(
        OpenApi.Description,
        "Simulates the payer of a `REALTIME_FUNDING` quote sending `currencyAmount` (default: the quote's `totalSendingAmount`) of `currencyCode` (the quote's sending currency). The exact amount starts the payment; another amount fails the quote and its transaction with `failureReason: FUNDING_AMOUNT_MISMATCH` and a completed refund. Answers the transaction."
      )
  )
  .addError(Authentication.PermissionDeniedBody)
  .middleware(Authentication.Authentication)
  .annotate(OpenApi.Title, "Sandbox payments")
  .annotate(OpenApi.Description, "The sandbox's stand-ins for payers outside the platform.") {}
