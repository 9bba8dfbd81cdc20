import { Context, Effect, Layer } from "effect"
import { type Job, type JobErrors, JobHandler } from "../events/index.js"
import * as CardProvisioningJob from "./CardProvisioningJob.js"
import * as CardPullJob from "./CardPullJob.js"

/**
 * The cards' delayed work as domain services, so that a job worker needs nothing but the domain: `provision`
 * completes one card's provisioning (`CardProvisioningJob`); `pull` confirms a card transaction's delayed pull
 * (`CardPullJob`).
 */
export class CardJobs extends Context.Tag("@payrail/core/CardJobs")<
  CardJobs,
  {
    readonly provision: (job: Job.Job) => Effect.Effect<void, JobErrors.JobFailed>
    readonly pull: (job: Job.Job) => Effect.Effect<void, JobErrors.JobFailed>
  }
>() {}

export const layer = Layer.effect(
  CardJobs,
  Effect.gen(function* () {
    const provisioning = yield* Effect.context<CardProvisioningJob.Requirements>()
    const pulls = yield* Effect.context<CardPullJob.Requirements>()
    return {
      provision: (job) => Effect.provide(CardProvisioningJob.run(job), provisioning),
      pull: (job) => Effect.provide(CardPullJob.run(job), pulls)
    }
  })
)

/** The handler of card provisioning (kind `cards.provisioning`); retried with the default policy. */
export const provisioningHandler = JobHandler.make({
  kind: CardProvisioningJob.kind,
  handle: (job) => Effect.flatMap(CardJobs, (jobs) => jobs.provision(job))
})

/** The handler of delayed pull confirmations (kind `cards.pull`); retried with the default policy. */
export const pullHandler = JobHandler.make({
  kind: CardPullJob.kind,
  handle: (job) => Effect.flatMap(CardJobs, (jobs) => jobs.pull(job))
})
