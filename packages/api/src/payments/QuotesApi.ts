import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { FieldFormat, Ledger, PaymentErrors, Quote, QuoteRequest, SchemaClass } from "@payrail/core"
import { ExternalAccountsApi, InternalAccountsApi } from "../accounts/index.js"
import { ErrorBody, FieldErrorReport, ListQuery, SignedRetryContract } from "../kernel/index.js"
import { Authentication } from "../platforms/index.js"
import * as Pricing from "./PricingErrorBodies.js"
import * as Receiver from "./ReceiverApi.js"

const { wire } = ErrorBody
const { reportFieldErrors } = FieldErrorReport
const { ListResponse, pageParams } = ListQuery

/** 404 `QUOTE_NOT_FOUND`. */
export const QuoteNotFoundBody = wire(PaymentErrors.QuoteNotFound, 404, "No such quote on this platform")
/** 400 `QUOTE_EXPIRED`. */
export const QuoteExpiredBody = wire(PaymentErrors.QuoteExpired, 400, "The quote has expired; request a new quote")
/** 409 `INVALID_STATE_TRANSITION`: executed already, or not pending. */
export const QuoteTransitionRefusedBody = wire(
  PaymentErrors.QuoteTransitionRefused,
  409,
  "The quote was executed already, or is not pending"
)
/** 400 `INSUFFICIENT_FUNDS`: the source's available balance does not cover the quote. */
export const InsufficientFundsBody = wire(
  Ledger.InsufficientFunds,
  400,
  "The source account's available balance does not cover the payment"
)
/** 409: the destination balance would pass the largest amount the API carries. */
export const BalanceLimitBody = wire(
  Ledger.BalanceLimitExceeded,
  409,
  "The destination's balance would exceed 9007199254740991 minor units"
)
/** 400 `SELF_PAYMENT`. */
export const SelfPaymentBody = wire(PaymentErrors.SelfPayment, 400, "An account cannot pay itself")
/** 400 `EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED`. */
export const VerificationRequiredBody = wire(
  PaymentErrors.ExternalAccountVerificationRequired,
  400,
  "The destination's ownership must be verified first"
)

const QuotePath = reportFieldErrors(Schema.Struct({ quoteId: Quote.QuoteId }))

const Bound = ListQuery.TimestampBound

/** Query of `GET /quotes`: filters (bounds on `createdAt`, inclusive) and paging. */
export const QuoteListParams = reportFieldErrors(
  Schema.Struct({
    customerId: Schema.optional(FieldFormat.Text(255)),
    status: Schema.optional(Quote.QuoteStatus),
    createdAfter: Schema.optional(Bound),
    createdBefore: Schema.optional(Bound),
    ...pageParams
  })
)

const quoteList = ListResponse(Quote.Quote, "QuoteListResponse")

/**
 * A real-time funded quote created waiting for strong customer authentication (`PENDING_AUTHORIZATION`, with its
 * `scaChallenge`, `paymentInstructions` withheld until it is authorized), answered 202 (docs/sca.md). Its `status` and
 * `source` are narrowed, so the create endpoint's response union (this member first) matches exactly such quotes.
 */
export class QuoteAwaitingAuthorization extends SchemaClass.Class<QuoteAwaitingAuthorization>(
  "QuoteAwaitingAuthorization"
)(
  {
    ...Quote.Quote.fields,
    status: Schema.Literal("PENDING_AUTHORIZATION"),
    source: Quote.QuoteSource.members[1]
  },
  { description: "A real-time funded quote waiting for strong customer authentication (202)" }
) {}

/** Quotes: price a payment (same- or cross-currency), read it, execute it. */
export class QuotesApi extends HttpApiGroup.make("quotes")
  .add(
    HttpApiEndpoint.post("create", "/quotes")
      .setPayload(reportFieldErrors(QuoteRequest.CreateQuoteRequest))
      // The narrower 202 member first: a response is encoded by the first member it matches.
      .addSuccess(QuoteAwaitingAuthorization, { status: 202 })
      .addSuccess(Quote.Quote, { status: 201 })
      .addError(InternalAccountsApi.InternalAccountNotFoundBody)
      .addError(ExternalAccountsApi.NotFoundBody)
      .addError(SelfPaymentBody)
      .addError(VerificationRequiredBody)
      .addError(InsufficientFundsBody)
      .addError(QuoteTransitionRefusedBody)
      .addError(BalanceLimitBody)
      .addError(Pricing.QuoteRateUnavailableBody)
      .addError(Pricing.InvalidCurrencyBody)
      .addError(Pricing.InvalidAmountBody)
      .addError(Pricing.AmountOutOfRangeBody)
      .addError(Pricing.TransactionSizeLimitExceededBody)
      .addError(Receiver.InvalidUmaAddressBody)
      .addError(Receiver.UmaNotFoundBody)
      .addError(Receiver.LookupNotFoundBody)
      .addError(Receiver.MissingMandatoryUserInfoBody)
      .annotate(OpenApi.Summary, "Create a quote")
      .annotate(
        OpenApi.Description,
        "Prices a payment from `source` to `destination` with one side's amount locked, and holds the price until `expiresAt`. With `immediatelyExecute` the quote is executed in the same request. A real-time funded quote of a customer who uses strong customer authentication, paying anyone but a trusted beneficiary or an internal account, is answered 202 in `PENDING_AUTHORIZATION` with its `scaChallenge` and no `paymentInstructions` until `POST /quotes/{quoteId}/authorize`. An `UMA_ADDRESS` destination needs the `lookupId` of a receiver lookup (`GET /receiver/uma/{receiverUmaAddress}`) and, in `senderCustomerInfo`, the payer data it lists as mandatory. The pricing rule (`totalSendingAmount = ceil(totalReceivingAmount × exchangeRate) + feesIncluded`, in minor units) is in the FX and fees guide."
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/quotes")
      .setUrlParams(QuoteListParams)
      .addSuccess(quoteList)
      .annotate(OpenApi.Summary, "List quotes")
  )
  .add(
    HttpApiEndpoint.get("get", "/quotes/:quoteId")
      .setPath(QuotePath)
      .addSuccess(Quote.Quote)
      .addError(QuoteNotFoundBody)
      .annotate(OpenApi.Summary, "Get a quote")
  )
  .add(
    HttpApiEndpoint.post("execute", "/quotes/:quoteId/execute")
      .setPath(QuotePath)
      .setHeaders(SignedRetryContract.WalletRequestHeaders)
      .addSuccess(Quote.Quote)
      .addSuccess(SignedRetryContract.SignedRequestChallenge, { status: 202 })
      .addError(SignedRetryContract.SignedRetryRefusedBody)
      .addError(QuoteNotFoundBody)
      .addError(QuoteExpiredBody)
      .addError(QuoteTransitionRefusedBody)
      .addError(InsufficientFundsBody)
      .addError(BalanceLimitBody)
      .annotate(OpenApi.Summary, "Execute a quote")
      .annotate(
        OpenApi.Description,
        "Takes the source amount (reserved in the ledger) and starts the payment: the quote is `PROCESSING`, and its transaction's webhooks follow as it settles. A second execute is refused with 409, an expired quote with `QUOTE_EXPIRED`. A quote funded by an `EMBEDDED_WALLET` executes only with a `Service-Wallet-Signature` over its `paymentInstructions[].accountOrWalletInfo.payloadToSign` by an active session of that wallet: sent directly, or as a signed retry (without the header the answer is a 202 challenge carrying the same `payloadToSign`, unless the quote can no longer execute: then 409 or `QUOTE_EXPIRED` at once; retry with the stamp and its `Request-Id`). Other quotes ignore the wallet headers."
      )
  )
  .addError(Authentication.PermissionDeniedBody)
  .middleware(Authentication.Authentication)
  .annotate(OpenApi.Title, "Quotes")
  .annotate(
    OpenApi.Description,
    "A quote locks the price of one payment, same- or cross-currency, between internal accounts, to external accounts or pulled from them."
  ) {}
