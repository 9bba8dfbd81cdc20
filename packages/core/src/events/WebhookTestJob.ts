import { DateTime, Effect, Layer, Option, Schema } from "effect"
import type { PlatformId } from "../kernel/index.js"
import { PlatformRepo, WebhookEndpointConfigured } from "../platforms/index.js"
import * as JobErrors from "./JobErrors.js"
import * as JobHandler from "./JobHandler.js"
import type { NewJob } from "./Job.js"
import { Jobs } from "./Jobs.js"
import { WebhookDispatch } from "./WebhookDispatch.js"

/** The kind of the job that sends the `TEST` webhook when a platform configures its endpoint. */
export const kind = "webhook.test"

const Payload = Schema.Struct({ url: Schema.String })

/** The `TEST` webhook to `url`, the endpoint `platform` just configured, due now. */
export const newJob = (platformId: PlatformId.PlatformId, url: string, dueAt: DateTime.Utc): NewJob => ({
  kind,
  payload: { url },
  platformId,
  dueAt
})

/**
 * Sends one signed `TEST` webhook (no `data`) to the URL the job names, as the reference does when a webhook URL is
 * configured, to whatever the receiver answers: the outcome is logged (Info when answered 2xx, else Warning, with the
 * status or the transport failure's kind; never the body or a secret) and the job completes. It is not retried on
 * the receiver's answer and it opens no delivery in the delivery log. Only a store failure before the send is
 * retried (up to 3 attempts).
 */
export const handler = JobHandler.make({
  kind,
  retry: { maxAttempts: 3 },
  handle: (job) =>
    Effect.gen(function* () {
      const payload = Schema.decodeUnknownOption(Payload)(job.payload)
      if (Option.isNone(payload) || job.platformId === undefined) {
        return yield* JobErrors.JobFailed.permanent("the job names no platform or URL")
      }
      const platform = yield* (yield* PlatformRepo.PlatformRepo).findById(job.platformId)
      if (Option.isNone(platform)) return yield* JobErrors.JobFailed.permanent("the platform no longer exists")
      const annotations = { platformId: job.platformId, jobId: job.id }
      yield* (yield* WebhookDispatch).sendTestTo(platform.value, payload.value.url).pipe(
        Effect.flatMap(({ responseStatus }) =>
          responseStatus >= 200 && responseStatus < 300
            ? Effect.logInfo("TEST webhook delivered").pipe(Effect.annotateLogs({ ...annotations, responseStatus }))
            : Effect.logWarning("TEST webhook answered with an error status").pipe(
                Effect.annotateLogs({ ...annotations, responseStatus })
              )
        ),
        Effect.catchTag("WebhookDeliveryError", (failure) =>
          Effect.logWarning("TEST webhook got no answer").pipe(
            Effect.annotateLogs({ ...annotations, failure: failure.details.kind })
          )
        )
      )
    }).pipe(
      Effect.catchTag("StoreFailure", () => JobErrors.JobFailed.retry("the store failed before the TEST webhook"))
    )
})

/** `WebhookEndpointConfigured` as the reference behaves: the `TEST` webhook job, in the change's unit of work. */
export const endpointConfiguredLayer: Layer.Layer<WebhookEndpointConfigured.WebhookEndpointConfigured, never, Jobs> =
  Layer.effect(
    WebhookEndpointConfigured.WebhookEndpointConfigured,
    Effect.map(Jobs, (jobs) => ({
      configured: (platform, url) => Effect.flatMap(DateTime.now, (now) => jobs.enqueue(newJob(platform.id, url, now)))
    }))
  )
