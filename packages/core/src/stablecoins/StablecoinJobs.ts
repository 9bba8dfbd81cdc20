import { Context, Effect, Layer } from "effect"
import { type Job, type JobErrors, JobHandler } from "../events/index.js"
import * as StablecoinSettlementJob from "./StablecoinSettlementJob.js"

/**
 * Stablecoin issuance's delayed work as a domain service, so that a job worker needs nothing but the domain:
 * `settle` settles one `PENDING` operation with the provider (`StablecoinSettlementJob`).
 */
export class StablecoinJobs extends Context.Tag("@payrail/core/StablecoinJobs")<
  StablecoinJobs,
  { readonly settle: (job: Job.Job) => Effect.Effect<void, JobErrors.JobFailed> }
>() {}

export const layer = Layer.effect(
  StablecoinJobs,
  Effect.map(Effect.context<StablecoinSettlementJob.Requirements>(), (context) => ({
    settle: (job: Job.Job) => Effect.provide(StablecoinSettlementJob.run(job), context)
  }))
)

/** The handler of stablecoin settlements (kind `stablecoins.settlement`); retried with the default policy. */
export const settlementHandler = JobHandler.make({
  kind: StablecoinSettlementJob.kind,
  handle: (job) => Effect.flatMap(StablecoinJobs, (jobs) => jobs.settle(job))
})
