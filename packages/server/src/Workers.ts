import { Duration, Effect, Layer } from "effect"
import {
  AgentActionExpiryJob,
  BulkImportJob,
  CardJobs,
  type Domain,
  IdempotencyPurgeJob,
  type JobHandler,
  JobWorker,
  PaymentJobs,
  Purges,
  StablecoinJobs,
  type Storage,
  WebhookDeliveryJob,
  WebhookTestJob,
  ScaJobs
} from "@payrail/core"
import { IncomingApprovals } from "@payrail/core"
import type { ServerConfig } from "./ServerConfig.js"

/** What a job handler run by the server may use: the domain and the store. */
export type HandlerServices = Domain.Services | Storage.Services

/**
 * Every job handler the reference server runs. Each capability that enqueues jobs adds its handlers here, one line
 * each, so that `payrail serve` runs them; a job of a kind missing from the list is buried as DEAD with an error
 * naming its kind.
 */
export const handlers: ReadonlyArray<JobHandler.JobHandler<HandlerServices>> = [
  WebhookDeliveryJob.handler,
  WebhookTestJob.handler,
  Purges.handler,
  PaymentJobs.settlementHandler,
  PaymentJobs.expiryHandler,
  PaymentJobs.incomingCompletionHandler,
  AgentActionExpiryJob.handler,
  CardJobs.provisioningHandler,
  CardJobs.pullHandler,
  IncomingApprovals.deadlineHandler,
  BulkImportJob.handler,
  StablecoinJobs.settlementHandler,
  ScaJobs.expiryHandler
]

/** The worker settings of `settings`: the configured concurrency and lease, and the shutdown timeout as grace. */
export const options = (settings: ServerConfig): JobWorker.Options => ({
  concurrency: settings.jobConcurrency,
  lease: Duration.seconds(settings.jobLeaseSeconds),
  shutdownGrace: Duration.seconds(settings.shutdownTimeoutSeconds)
})

/**
 * Runs `JobWorker` over `all` (by default `handlers`) for as long as the layer lives, having scheduled the hourly
 * idempotency purge when `all` runs it. Releasing the layer (SIGTERM)
 * stops claiming at once, lets running handlers finish within `PAYRAIL_SHUTDOWN_TIMEOUT_SECONDS`, and releases the
 * jobs of those still running, so that another instance runs them.
 */
export const layer = (
  settings: ServerConfig,
  all: ReadonlyArray<JobHandler.JobHandler<HandlerServices>> = handlers
): Layer.Layer<never, never, HandlerServices> =>
  Layer.scopedDiscard(
    Effect.logDebug(`running jobs of ${all.length} kind(s)`).pipe(
      // The periodic jobs this worker runs are scheduled (once across instances) before it starts.
      Effect.zipRight(
        all.some((handler) => handler.kind === IdempotencyPurgeJob.kind)
          ? Effect.catchAll(IdempotencyPurgeJob.schedule, (failure) =>
              Effect.logWarning("could not schedule the idempotency purge", failure.operation)
            )
          : Effect.void
      ),
      Effect.zipRight(Effect.forkScoped(JobWorker.run(all, options(settings))))
    )
  )
