import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { FieldFormat, PaymentErrors, Transaction } from "@payrail/core"
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
  status: Schema.optional(Transaction.TransactionStatus),
  type: Schema.optional(Transaction.TransactionType),
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

const transactionList = ListResponse(Transaction.Transaction, "TransactionListResponse")

/** Money transactions: list, read, confirm receipt delivery. */
export class TransactionsApi extends HttpApiGroup.make("transactions")
  .add(
    HttpApiEndpoint.get("list", "/transactions")
      .setUrlParams(TransactionListParams)
      .addSuccess(transactionList)
      .annotate(OpenApi.Summary, "List transactions")
      .annotate(
        OpenApi.Description,
        "Newest first unless `sortOrder=asc`. `accountIdentifier` matches the sender or the receiver (an account id or an UMA address). Pages are keyset pages of constant cost; the list is not counted (`totalCount` is absent)."
      )
  )
  .add(
    HttpApiEndpoint.get("get", "/transactions/:transactionId")
      .setPath(TransactionPath)
      .addSuccess(Transaction.Transaction)
      .addError(TransactionNotFoundBody)
      .annotate(OpenApi.Summary, "Get a transaction")
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
  .annotate(OpenApi.Description, "Every money movement of the platform's customers and of the platform.") {}
