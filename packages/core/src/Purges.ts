import type { Effect } from "effect"
import { IdempotencyPurgeJob } from "./events/index.js"
import { IdempotencyPurge, type StoreFailure } from "./kernel/index.js"
import { UmaLookupPurge } from "./payments/index.js"
import { DocumentFilePurge } from "./verification/index.js"
import { SignedRequestPurge } from "./wallets/index.js"

/**
 * Every retention purge of the domain, run once an hour by the purge job: idempotency records past 24 hours,
 * signed-retry challenges and receiver lookups expired over an hour ago, staged document files never attached
 * (begun over an hour ago). A capability that keeps records only for a
 * while adds its purge here, one line.
 */
export const hourly: ReadonlyArray<
  Effect.Effect<
    number,
    StoreFailure.StoreFailure,
    | Effect.Effect.Context<typeof IdempotencyPurge.purge>
    | Effect.Effect.Context<typeof SignedRequestPurge.purge>
    | Effect.Effect.Context<typeof UmaLookupPurge.purge>
    | Effect.Effect.Context<typeof DocumentFilePurge.purge>
  >
> = [IdempotencyPurge.purge, SignedRequestPurge.purge, UmaLookupPurge.purge, DocumentFilePurge.purge]

/** The hourly purge job's handler over `hourly`: what a worker runs (the reference server's does). */
export const handler = IdempotencyPurgeJob.make(hourly)
