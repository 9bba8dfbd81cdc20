import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { FieldFormat, IncomingErrors, JsonObject, Transaction } from "@payrail/core"
import { ErrorBody, FieldErrorReport } from "../kernel/index.js"
import { Authentication } from "../platforms/index.js"
import { TransactionNotFoundBody } from "./TransactionsApi.js"

const { wire } = ErrorBody
const { reportFieldErrors } = FieldErrorReport

/** 409 `TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL`: the incoming payment was decided already or timed out. */
export const IncomingPaymentNotPendingBody = wire(
  IncomingErrors.IncomingPaymentNotPending,
  409,
  "The incoming payment no longer waits for the platform's decision (decided already, or its deadline passed)"
)

/** 409 `TRANSACTION_NOT_CANCELLABLE`: not an ACH transfer, or past the point where it could be withdrawn. */
export const TransactionNotCancellableBody = wire(
  IncomingErrors.TransactionNotCancellable,
  409,
  "The transaction cannot be cancelled"
)

const TransactionPath = reportFieldErrors(Schema.Struct({ transactionId: Transaction.TransactionId }))

/** Body of `POST /transactions/{id}/approve`: what the receiver shares with the sender, when asked. */
export const ApproveTransactionRequest = reportFieldErrors(
  Schema.Struct({ receiverCustomerInfo: Schema.optional(JsonObject.JsonObject) }).annotations({
    identifier: "ApproveTransactionRequest",
    parseOptions: { onExcessProperty: "error" }
  })
)

/** Body of `POST /transactions/{id}/reject` and `/cancel`: an optional reason (at most 1000 characters). */
export const TransactionReasonRequest = (identifier: string) =>
  reportFieldErrors(
    Schema.Struct({ reason: Schema.optional(FieldFormat.Text(1000)) }).annotations({
      identifier,
      parseOptions: { onExcessProperty: "error" }
    })
  )

/** Deciding held incoming payments, and cancelling bank transfers not yet settled. */
export class IncomingApprovalsApi extends HttpApiGroup.make("incomingApprovals")
  .add(
    HttpApiEndpoint.post("reject", "/transactions/:transactionId/reject")
      .setPath(TransactionPath)
      .setPayload(TransactionReasonRequest("RejectTransactionRequest"))
      .addSuccess(Transaction.Transaction)
      .addError(TransactionNotFoundBody)
      .addError(IncomingPaymentNotPendingBody)
      .annotate(OpenApi.Summary, "Reject a pending incoming payment")
      .annotate(
        OpenApi.Description,
        "An incoming payment held `PENDING` for the platform's decision becomes `REJECTED`; its pending credit is " +
          "released and the sender keeps the money. The body is optional. 409 " +
          "`TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL` when the payment is not held, was decided already, or its " +
          "deadline passed (docs/incoming-approvals.md)."
      )
  )
  .add(
    HttpApiEndpoint.post("cancel", "/transactions/:transactionId/cancel")
      .setPath(TransactionPath)
      .setPayload(TransactionReasonRequest("CancelTransactionRequest"))
      .addSuccess(Transaction.Transaction)
      .addError(TransactionNotFoundBody)
      .addError(TransactionNotCancellableBody)
      .annotate(OpenApi.Summary, "Cancel a bank transfer")
      .annotate(
        OpenApi.Description,
        "Withdraws an ACH transfer (a push, or a pull from an external account) that is still `PROCESSING`: it " +
          "becomes `FAILED` with a completed refund of reason `USER_CANCELLATION`, and its reserved money is released; " +
          "the body's `reason`, if any, is kept on the transaction as `cancellationReason`. " +
          "Wires, instant rails, crypto and UMA payments, incoming payments and settled transfers answer 409 " +
          "`TRANSACTION_NOT_CANCELLABLE` with the rule (`not_outgoing`, `rail_not_cancellable`, `already_sent`)."
      )
  )
  .addError(Authentication.PermissionDeniedBody)
  .middleware(Authentication.Authentication)
  .annotate(OpenApi.Title, "Incoming approvals")
  .annotate(
    OpenApi.Description,
    "The platform's decisions on incoming payments that wait for it, and cancelling bank transfers (docs/incoming-approvals.md)."
  ) {}
