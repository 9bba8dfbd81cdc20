import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { FieldFormat, PaymentErrors, Transaction, TransactionFeed } from "@payrail/core"
import { ErrorBody, FieldErrorReport, ListQuery } from "../kernel/index.js"
import { Authentication } from "../platforms/index.js"

const { wire } = ErrorBody
const { reportFieldErrors } = FieldErrorReport
const { ListResponse, pageParams } = ListQuery

/** 404 `TRANSACTION_NOT_FOUND`. */
export const TransactionNotFoundBody = wire(
  PaymentErrors.TransactionNotFound,
  404,
  "No such transaction on this platform"
)

const TransactionPath = reportFieldErrors(Schema.Struct({ transactionId: Transaction.TransactionId }))

/** Path of `GET /transactions/{id}`: a money transaction's id or a card transaction's (`CardTransaction:<uuid>`). */
export const AnyTransactionPath = reportFieldErrors(Schema.Struct({ transactionId: TransactionFeed.FeedTransactionId }))

const Bound = ListQuery.TimestampBound
const Identifier = FieldFormat.Text(255)

/**
 * The filters of the transaction lists other than the customer ones (dates inclusive), with `sortOrder`: also those
 * of `GET /agents/me/transactions`.
 */
export const transactionFilters = {
  accountIdentifier: Schema.optional(Identifier),
  senderAccountIdentifier: Schema.optional(Identifier),
  receiverAccountIdentifier: Schema.optional(Identifier),
  status: Schema.optional(TransactionFeed.FeedStatus),
  type: Schema.optional(TransactionFeed.FeedType),
  reference: Schema.optional(Identifier),
  startDate: Schema.optional(Bound),
  endDate: Schema.optional(Bound),
  sortOrder: Schema.optional(Schema.Literal("asc", "desc"))
}

/** Query of `GET /transactions`: the reference's filters (dates inclusive), `sortOrder` and paging. */
export const TransactionListParams = reportFieldErrors(
  Schema.Struct({
    customerId: Schema.optional(Identifier),
    platformCustomerId: Schema.optional(Identifier),
    ...transactionFilters,
    ...pageParams
  })
)

/** Body of `POST /transactions/{id}/confirm`: when the receipt reached the customer (default: now). */
export const ConfirmTransactionRequest = reportFieldErrors(
  Schema.Struct({ receiptDeliveryConfirmedAt: Schema.optional(Bound) }).annotations({
    identifier: "ConfirmTransactionRequest",
    parseOptions: { onExcessProperty: "error" }
  })
)

/** A page of transactions of both kinds: money transactions and card transactions (`type: CARD`). */
export const TransactionListResponse = ListResponse(TransactionFeed.FeedTransaction, "TransactionListResponse")

/** Money transactions: list, read, confirm receipt delivery. */
export class TransactionsApi extends HttpApiGroup.make("transactions")
  .add(
    HttpApiEndpoint.get("list", "/transactions")
      .setUrlParams(TransactionListParams)
      .addSuccess(TransactionListResponse)
      .annotate(OpenApi.Summary, "List transactions")
      .annotate(
        OpenApi.Description,
        "Money transactions and card transactions (`type: CARD`) in one list, newest first unless `sortOrder=asc`, with one cursor across both. `accountIdentifier` matches the sender or the receiver (an account id or an UMA address), or a card transaction's funding account; `senderAccountIdentifier` also matches the funding account; `receiverAccountIdentifier` and `reference` match no card transaction; `type=CARD` lists only card transactions. Pages are keyset pages of constant cost; the list is not counted (`totalCount` is absent)."
      )
  )
  .add(
    HttpApiEndpoint.get("get", "/transactions/:transactionId")
      .setPath(AnyTransactionPath)
      .addSuccess(TransactionFeed.FeedTransaction)
      .addError(TransactionNotFoundBody)
      .annotate(OpenApi.Summary, "Get a transaction")
      .annotate(
        OpenApi.Description,
        "A money transaction (`Transaction:<uuid>`) or a card transaction (`CardTransaction:<uuid>`)."
      )
  )
  .add(
    HttpApiEndpoint.post("confirm", "/transactions/:transactionId/confirm")
      .setPath(TransactionPath)
      .setPayload(ConfirmTransactionRequest)
      .addSuccess(Transaction.Transaction)
      .addError(TransactionNotFoundBody)
      .annotate(OpenApi.Summary, "Confirm receipt delivery")
      .annotate(
        OpenApi.Description,
        "Records when the transaction's receipt reached the customer (`receiptDeliveryConfirmedAt`, default now); a repeated call overwrites it."
      )
  )
  .addError(Authentication.PermissionDeniedBody)
  .middleware(Authentication.Authentication)
  .annotate(OpenApi.Title, "Transactions")
  .annotate(
    OpenApi.Description,
    "Every money movement of the platform's customers and of the platform, card transactions included."
  ) {}
