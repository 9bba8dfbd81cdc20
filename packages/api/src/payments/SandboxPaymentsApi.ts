import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Currency, Money, Quote, Transaction, UmaReceiveRequest } from "@payrail/core"
import { CustomersApi } from "../customers/index.js"
import { FieldErrorReport } from "../kernel/index.js"
import { Authentication, SandboxClockApi } from "../platforms/index.js"
import { InvalidCurrencyBody } from "./PricingErrorBodies.js"
import { BalanceLimitBody, QuoteExpiredBody, QuoteNotFoundBody, QuoteTransitionRefusedBody } from "./QuotesApi.js"
import * as Receiver from "./ReceiverApi.js"

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

/** Body of `POST /sandbox/uma/receive`: the sender, the receiver (by UMA address or customer id) and the amount. */
export const SandboxUmaReceiveRequest = FieldErrorReport.reportFieldErrors(
  UmaReceiveRequest.UmaReceiveRequest.annotations({ parseOptions: { errors: "all", onExcessProperty: "error" } })
)

/** The sandbox's payers: fund a real-time funded quote, send an UMA payment to a customer. */
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
  .add(
    HttpApiEndpoint.post("receiveUma", "/sandbox/uma/receive")
      .setPayload(SandboxUmaReceiveRequest)
      .addSuccess(Transaction.Transaction)
      .addError(Receiver.InvalidUmaAddressBody)
      .addError(CustomersApi.CustomerNotFoundBody)
      .addError(InvalidCurrencyBody)
      .addError(BalanceLimitBody)
      .addError(SandboxClockApi.SandboxOnlyBody)
      .annotate(OpenApi.Summary, "Sandbox: receive an UMA payment")
      .annotate(
        OpenApi.Description,
        "Simulates an UMA payment of `receivingCurrencyAmount` (minor units of `receivingCurrencyCode`) from `senderUmaAddress` to a customer of the platform, named by `receiverUmaAddress` or `customerId` (exactly one). The money goes to the customer's external account marked `defaultUmaDepositAccount` in that currency, else to the customer's primary internal account of that currency (the oldest active one that is not an embedded wallet). Senders `$success.{usd,eur,mxn}@sandbox.uma.money` (or `@sandbox.grid.uma.money`) and any other well-formed address complete at once; `$pending.long.usd@…` stays `PENDING` for an hour of the platform's clock, then completes; `$fail.compliance.usd@…` fails with `failureReason: COMPLIANCE_REJECTED` and credits nothing. Answers the incoming transaction; `INCOMING_PAYMENT` follows every status."
      )
  )
  .addError(Authentication.PermissionDeniedBody)
  .middleware(Authentication.Authentication)
  .annotate(OpenApi.Title, "Sandbox payments")
  .annotate(
    OpenApi.Description,
    "The sandbox's stand-ins for payers outside the platform: a real-time funding payer, UMA senders."
  ) {}
