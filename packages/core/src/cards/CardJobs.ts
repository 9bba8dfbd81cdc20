import { Context, Effect, Layer } from "effect"
import { type Job, type JobErrors, JobHandler } from "../events/index.js"
import * as CardProvisioningJob from "./CardProvisioningJob.js"

/**
 * The cards' delayed work as domain services, so that a job worker needs nothing but the domain: `provision`
 * completes one card's provisioning (`CardProvisioningJob`).
 */
export class CardJobs extends Context.Tag("@payrail/core/CardJobs")<
  CardJobs,
  {
    readonly provision: (job: Job.Job) => Effect.Effect<void, JobErrors.JobFailed>
  }
>() {}

export const layer = Layer.effect(
  CardJobs,
  Effect.gen(function* () {
    const provisioning = yield* Effect.context<CardProvisioningJob.Requirements>()
    return {
      provision: (job) => Effect.provide(CardProvisioningJob.run(job), provisioning)
    }
  })
)

/** The handler of card provisioning (kind `cards.provisioning`); retried with the default policy. */
export const provisioningHandler = JobHandler.make({
  kind: CardProvisioningJob.kind,
  handle: (job) => Effect.flatMap(CardJobs, (jobs) => jobs.provision(job))
})
