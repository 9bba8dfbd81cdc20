import { Context, Effect, Layer } from "effect"
import { type Job, type JobErrors, JobHandler } from "../events/index.js"
import * as ScaChallengeExpiryJob from "./ScaChallengeExpiryJob.js"

/** The SCA context's delayed work as a domain service: `expire` ends one lapsed challenge (`ScaChallengeExpiryJob`). */
export class ScaJobs extends Context.Tag("@payrail/core/ScaJobs")<
  ScaJobs,
  { readonly expire: (job: Job.Job) => Effect.Effect<void, JobErrors.JobFailed> }
>() {}

export const layer = Layer.effect(
  ScaJobs,
  Effect.map(Effect.context<ScaChallengeExpiryJob.Requirements>(), (context) => ({
    expire: (job: Job.Job) => Effect.provide(ScaChallengeExpiryJob.run(job), context)
  }))
)

/** The handler of SCA challenge expiries (kind `sca.challenge-expiry`); retried with the default policy. */
export const expiryHandler = JobHandler.make({
  kind: ScaChallengeExpiryJob.kind,
  handle: (job) => Effect.flatMap(ScaJobs, (jobs) => jobs.expire(job))
})
