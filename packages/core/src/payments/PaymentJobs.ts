import { Context, Effect, Layer } from "effect"
import { type Job, type JobErrors, JobHandler } from "../events/index.js"
import * as IncomingCompletionJob from "./IncomingCompletionJob.js"
import * as PaymentSettlementJob from "./PaymentSettlementJob.js"
import * as QuoteExpiryJob from "./QuoteExpiryJob.js"

/**
 * The payments' delayed work as domain services, so that a job worker needs nothing but the domain: `settle` runs
 * one check of an executed payment (`PaymentSettlementJob`), `expire` one quote expiry (`QuoteExpiryJob`),
 * `completeIncoming` the arrival of an incoming payment held pending (`IncomingCompletionJob`).
 */
export class PaymentJobs extends Context.Tag("@payrail/core/PaymentJobs")<
  PaymentJobs,
  {
    readonly settle: (job: Job.Job) => Effect.Effect<void, JobErrors.JobFailed>
    readonly expire: (job: Job.Job) => Effect.Effect<void, JobErrors.JobFailed>
    readonly completeIncoming: (job: Job.Job) => Effect.Effect<void, JobErrors.JobFailed>
  }
>() {}

export const layer = Layer.effect(
  PaymentJobs,
  Effect.gen(function* () {
    const settlement = yield* Effect.context<PaymentSettlementJob.Requirements>()
    const expiry = yield* Effect.context<QuoteExpiryJob.Requirements>()
    const completion = yield* Effect.context<IncomingCompletionJob.Requirements>()
    return {
      settle: (job) => Effect.provide(PaymentSettlementJob.run(job), settlement),
      expire: (job) => Effect.provide(QuoteExpiryJob.run(job), expiry),
      completeIncoming: (job) => Effect.provide(IncomingCompletionJob.run(job), completion)
    }
  })
)

/** The handler of payment settlement checks (kind `payments.settle`); retried with the default policy. */
export const settlementHandler = JobHandler.make({
  kind: PaymentSettlementJob.kind,
  handle: (job) => Effect.flatMap(PaymentJobs, (jobs) => jobs.settle(job))
})

/** The handler of quote expiries (kind `payments.quote-expiry`). */
export const expiryHandler = JobHandler.make({
  kind: QuoteExpiryJob.kind,
  handle: (job) => Effect.flatMap(PaymentJobs, (jobs) => jobs.expire(job))
})

/** The handler of incoming payment completions (kind `payments.incoming-completion`). */
export const incomingCompletionHandler = JobHandler.make({
  kind: IncomingCompletionJob.kind,
  handle: (job) => Effect.flatMap(PaymentJobs, (jobs) => jobs.completeIncoming(job))
})
