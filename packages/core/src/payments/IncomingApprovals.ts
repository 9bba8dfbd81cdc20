import { Context, DateTime, Duration, Effect, Layer, Option, Schema } from "effect"
import { type Job, JobErrors, JobHandler, WebhookDispatch } from "../events/index.js"
import { Ids, JsonObject, Outbox, type StoreFailure, UnitOfWork } from "../kernel/index.js"
import { Ledger } from "../ledger/index.js"
import type { Platform } from "../platforms/index.js"
import * as IncomingDecision from "./IncomingDecision.js"
import * as IncomingDecisionJob from "./IncomingDecisionJob.js"
import { IncomingDecisionRepo } from "./IncomingDecisionRepo.js"
import { IncomingPaymentNotPending } from "./IncomingErrors.js"
import * as IncomingTransaction from "./IncomingTransaction.js"
import { TransactionNotFound } from "./PaymentErrors.js"
import { type FailureReason, Transaction, type TransactionId } from "./Transaction.js"
import * as TransactionEvents from "./TransactionEvents.js"
import { TransactionRepo } from "./TransactionRepo.js"

/** What a decision does to the held payment. */
type Outcome =
  | { readonly decision: "APPROVED"; readonly receiverCustomerInfo?: JsonObject.JsonObject | undefined }
  | {
      readonly decision: "REJECTED"
      readonly reason?: string | undefined
      /** A rejection for missing receiver data fails the payment with this reason rather than rejecting it. */
      readonly failureReason?: FailureReason | undefined
    }
  | { readonly decision: "TIMED_OUT" }

/** Body of `POST /transactions/{id}/approve` for a held incoming payment. */
export interface ApproveRequest {
  readonly receiverCustomerInfo?: JsonObject.JsonObject | undefined
}

/** What deciding can be refused for. */
export type DecideError = TransactionNotFound | IncomingPaymentNotPending | StoreFailure.StoreFailure

/**
 * The platform's decisions on incoming payments held for it (docs/incoming-approvals.md). A held payment is
 * `PENDING` with a pending credit; exactly one decision applies, in one unit of work with its ledger change and its
 * `INCOMING_PAYMENT` webhook: approval completes it (the credit is confirmed), rejection makes it `REJECTED` (the
 * credit is released), the deadline makes it `FAILED` with `PAYMENT_APPROVAL_TIMED_OUT` (released). A decision
 * asked for at or after the deadline applies the deadline instead and is refused.
 */
export class IncomingApprovals extends Context.Tag("@payrail/core/IncomingApprovals")<
  IncomingApprovals,
  {
    /**
     * Approves the held payment `id`. `None` when `id` is not an incoming payment that was held for the platform
     * (so `POST /transactions/{id}/approve` may mean an agent's transaction); 409 when it was decided already.
     */
    readonly approve: (
      platform: Platform.Platform,
      id: TransactionId,
      request: ApproveRequest
    ) => Effect.Effect<Option.Option<Transaction>, DecideError>
    /** Rejects the held payment `id`; 409 when it is not held for the platform or was decided already. */
    readonly reject: (
      platform: Platform.Platform,
      id: TransactionId,
      reason: Option.Option<string>
    ) => Effect.Effect<Transaction, DecideError>
    /**
     * Sends the held payment's `INCOMING_PAYMENT` webhook to the platform's endpoint and lets a reply within
     * `IncomingDecision.replyWindow` decide it: 200 approves, 403 rejects, 422 fails it with
     * `MISSING_MANDATORY_PAYEE_DATA`; 202, another status, a late reply or none leave it to the API. Answers the
     * transaction as it then is.
     */
    readonly askPlatform: (
      platform: Platform.Platform,
      transaction: Transaction
    ) => Effect.Effect<Transaction, StoreFailure.StoreFailure>
    /** Runs a deadline job (`IncomingDecisionJob`): a payment still awaiting fails; a decided one is left. */
    readonly runDeadline: (job: Job.Job) => Effect.Effect<void, JobErrors.JobFailed>
  }
>() {}

const decodeReply = Schema.decodeUnknownOption(
  Schema.parseJson(
    Schema.Struct({
      receiverCustomerInfo: Schema.optional(JsonObject.JsonObject),
      reason: Schema.optional(Schema.String)
    })
  )
)

export const layer = Layer.effect(
  IncomingApprovals,
  Effect.gen(function* () {
    const decisions = yield* IncomingDecisionRepo
    const transactions = yield* TransactionRepo
    const ledger = yield* Ledger.Ledger
    const outbox = yield* Outbox.Outbox
    const store = yield* UnitOfWork.UnitOfWork
    const ids = yield* Ids.Ids
    const dispatch = yield* WebhookDispatch.WebhookDispatch

    const notPending = (id: TransactionId, status: string, decision: string) =>
      IncomingPaymentNotPending.of(id, status, decision)

    // Applies `outcome` (or the deadline, when it has come) to the held payment in one unit of work; answers the
    // transaction after it and the decision that applied.
    const settle = (
      platformId: Platform.PlatformId,
      id: TransactionId,
      outcome: Outcome,
      decidedBy: IncomingDecision.DecidedBy
    ) =>
      store.transaction(
        Effect.gen(function* () {
          const stored = yield* transactions.findById(platformId, id)
          if (Option.isNone(stored)) return yield* TransactionNotFound.of(id)
          const { transaction } = stored.value
          const found = yield* decisions.find(platformId, id)
          if (Option.isNone(found)) return yield* notPending(id, transaction.status, "NONE")
          const decision = found.value
          if (decision.status !== "AWAITING") return yield* notPending(id, transaction.status, decision.status)
          const now = yield* DateTime.now
          const applied: Outcome = IncomingDecision.isLate(decision, now) ? { decision: "TIMED_OUT" } : outcome
          const won = yield* decisions.decide(
            platformId,
            new IncomingDecision.IncomingDecision({
              ...decision,
              status: applied.decision,
              decidedBy: applied.decision === "TIMED_OUT" ? "DEADLINE" : decidedBy,
              decidedAt: now,
              ...(applied.decision === "REJECTED" && applied.reason !== undefined ? { reason: applied.reason } : {}),
              ...(applied.decision === "APPROVED" && applied.receiverCustomerInfo !== undefined
                ? { receiverCustomerInfo: applied.receiverCustomerInfo }
                : {})
            })
          )
          if (!won) {
            const current = yield* decisions.find(platformId, id)
            return yield* notPending(
              id,
              transaction.status,
              Option.match(current, { onNone: () => "NONE", onSome: (d) => d.status })
            )
          }
          const next =
            applied.decision === "APPROVED"
              ? IncomingTransaction.completed(transaction, now)
              : new Transaction(
                  {
                    ...transaction,
                    ...(applied.decision === "TIMED_OUT"
                      ? { status: "FAILED" as const, failureReason: "PAYMENT_APPROVAL_TIMED_OUT" as const }
                      : applied.failureReason !== undefined
                        ? { status: "FAILED" as const, failureReason: applied.failureReason }
                        : { status: "REJECTED" as const }),
                    updatedAt: now
                  },
                  { disableValidation: true }
                )
          // The decision's compare-and-set admits one decider, so the transaction is still PENDING.
          if (!(yield* transactions.transition(platformId, id, "PENDING", { ...stored.value, transaction: next }))) {
            return yield* notPending(id, transaction.status, "NONE")
          }
          yield* Effect.transposeMapOption(stored.value.postingId, (postingId) =>
            applied.decision === "APPROVED"
              ? ledger.confirm(platformId, Ledger.PostingId.make(postingId))
              : ledger.release(platformId, Ledger.PostingId.make(postingId))
          ).pipe(Effect.catchTag("ReservationSettled", Effect.die))
          yield* outbox.append(yield* TransactionEvents.withIds(ids)(platformId, next))
          return { transaction: next, applied: applied.decision }
        })
      )

    // A decision the caller asked for: when the deadline applied instead, it is refused after it commits.
    const decide = (platform: Platform.Platform, id: TransactionId, outcome: Outcome) =>
      Effect.flatMap(settle(platform.id, id, outcome, "API"), (result) =>
        result.applied === "TIMED_OUT" && outcome.decision !== "TIMED_OUT"
          ? notPending(id, result.transaction.status, "TIMED_OUT")
          : Effect.succeed(result.transaction)
      )

    const approve = Effect.fn("IncomingApprovals.approve")(function* (
      platform: Platform.Platform,
      id: TransactionId,
      request: ApproveRequest
    ) {
      if (Option.isNone(yield* decisions.find(platform.id, id))) return Option.none()
      return Option.some(
        yield* decide(platform, id, { decision: "APPROVED", receiverCustomerInfo: request.receiverCustomerInfo })
      )
    })

    const reject = Effect.fn("IncomingApprovals.reject")(function* (
      platform: Platform.Platform,
      id: TransactionId,
      reason: Option.Option<string>
    ) {
      return yield* decide(platform, id, { decision: "REJECTED", reason: Option.getOrUndefined(reason) })
    })

    const outcomeOf = (status: number, body: string): Option.Option<Outcome> => {
      const reply = Option.getOrUndefined(decodeReply(body))
      if (status === 202) return Option.none()
      if (status >= 200 && status < 300) {
        return Option.some({ decision: "APPROVED", receiverCustomerInfo: reply?.receiverCustomerInfo })
      }
      if (status === 403) return Option.some({ decision: "REJECTED", reason: reply?.reason })
      if (status === 422) {
        return Option.some({
          decision: "REJECTED",
          reason: reply?.reason,
          failureReason: "MISSING_MANDATORY_PAYEE_DATA"
        })
      }
      return Option.none()
    }

    const askPlatform = Effect.fn("IncomingApprovals.askPlatform")(function* (
      platform: Platform.Platform,
      transaction: Transaction
    ) {
      const url = platform.config.webhookEndpoint
      if (url === undefined || transaction.status !== "PENDING") return transaction
      const decision = yield* decisions.find(platform.id, transaction.id)
      if (Option.isNone(decision) || decision.value.status !== "AWAITING") return transaction
      const event = yield* TransactionEvents.withIds(ids)(platform.id, transaction)
      const reply = yield* dispatch.sendEvent(platform, url, event).pipe(
        Effect.timeoutOption(IncomingDecision.replyWindow),
        Effect.catchTag("WebhookDeliveryError", () => Effect.succeed(Option.none()))
      )
      const outcome = Option.flatMap(
        Option.filter(reply, (answer) => answer.latencyMillis <= Duration.toMillis(IncomingDecision.replyWindow)),
        (answer) => outcomeOf(answer.responseStatus, answer.responseBody)
      )
      if (Option.isNone(outcome)) return transaction
      return yield* settle(platform.id, transaction.id, outcome.value, "WEBHOOK").pipe(
        Effect.map((result) => result.transaction),
        // Decided meanwhile (an API call won): the payment is as that decision left it.
        Effect.catchTags({
          IncomingPaymentNotPending: () =>
            Effect.map(transactions.findById(platform.id, transaction.id), (found) =>
              Option.match(found, { onNone: () => transaction, onSome: (stored) => stored.transaction })
            ),
          TransactionNotFound: () => Effect.succeed(transaction)
        })
      )
    })

    const runDeadline = (job: Job.Job) =>
      Effect.gen(function* () {
        const payload = IncomingDecisionJob.decodePayload(job.payload)
        if (Option.isNone(payload) || job.platformId === undefined) {
          return yield* JobErrors.JobFailed.permanent("the job names no held payment")
        }
        const { deadlineAt, transactionId } = payload.value
        if (DateTime.lessThan(yield* DateTime.now, deadlineAt)) {
          return yield* JobErrors.JobFailed.retryAt("not due yet", deadlineAt)
        }
        yield* settle(job.platformId, transactionId, { decision: "TIMED_OUT" }, "DEADLINE").pipe(
          Effect.catchTags({ IncomingPaymentNotPending: () => Effect.void, TransactionNotFound: () => Effect.void })
        )
      }).pipe(
        Effect.catchTag("StoreFailure", () =>
          JobErrors.JobFailed.retry("the store failed while timing out a held payment")
        )
      )

    return IncomingApprovals.of({ approve, reject, askPlatform, runDeadline })
  })
)

/** The handler of held payments' deadlines (kind `payments.incoming-decision-deadline`). */
export const deadlineHandler = JobHandler.make({
  kind: IncomingDecisionJob.kind,
  handle: (job) => Effect.flatMap(IncomingApprovals, (approvals) => approvals.runDeadline(job))
})
