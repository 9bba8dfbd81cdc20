import { DateTime, Effect, Option, Schema } from "effect"
import { type Job, JobErrors } from "../events/index.js"
import { type Ids, Outbox, type PlatformId, UnitOfWork } from "../kernel/index.js"
import { Ledger } from "../ledger/index.js"
import * as StablecoinEvents from "./StablecoinEvents.js"
import { StablecoinOperation, StablecoinOperationId } from "./StablecoinOperation.js"
import { StablecoinProvider } from "./StablecoinProvider.js"
import { StablecoinRepo } from "./StablecoinRepo.js"
import * as StablecoinSupply from "./StablecoinSupply.js"

/** The kind of the job that settles a `PENDING` stablecoin operation with the provider. */
export const kind = "stablecoins.settlement"

/** The settlement of `operationId`, due at `dueAt`; one per operation. */
export const newJob = (
  platformId: PlatformId.PlatformId,
  operationId: StablecoinOperationId,
  dueAt: DateTime.Utc
): Job.NewJob => ({
  kind,
  payload: { stablecoinOperationId: operationId },
  platformId,
  dueAt,
  deduplicationKey: operationId
})

const decodePayload = Schema.decodeUnknownOption(Schema.Struct({ stablecoinOperationId: StablecoinOperationId }))

/**
 * Asks the provider how a `PENDING` operation stands. Still pending: retried later. Settled: the operation takes the
 * provider's status, and, for a completed mint, its posting credits the supply; for a burn that did not complete
 * (`FAILED`, `EXPIRED`), a reversal posting credits back what the burn debited when it was taken; with
 * `STABLECOIN_OPERATION.<status>`, all in one unit of work (compare and set on `PENDING`, so running the job twice
 * changes nothing more). An operation that is no longer `PENDING` is left as it is.
 */
export const run = (job: Job.Job) =>
  Effect.gen(function* () {
    const payload = decodePayload(job.payload)
    if (Option.isNone(payload) || job.platformId === undefined) {
      return yield* JobErrors.JobFailed.permanent("the job names no stablecoin operation")
    }
    const platformId = job.platformId
    const repo = yield* StablecoinRepo
    const found = yield* repo.findOperation(platformId, payload.value.stablecoinOperationId)
    if (Option.isNone(found) || found.value.status !== "PENDING") return
    const operation = found.value
    const stablecoin = yield* repo.findStablecoin(platformId, operation.stablecoinId)
    const link = yield* repo.findProviderAccount(platformId, operation.stablecoinProviderAccountId)
    if (Option.isNone(stablecoin) || Option.isNone(link)) {
      return yield* JobErrors.JobFailed.permanent("the operation's stablecoin or link is gone")
    }
    const outcome = yield* (yield* StablecoinProvider)
      .settle({
        link: link.value,
        stablecoin: stablecoin.value,
        operationId: operation.id,
        operationType: operation.operationType,
        amount: BigInt(operation.amount),
        description: operation.description
      })
      .pipe(Effect.catchTag("StablecoinProviderUnavailable", () => JobErrors.JobFailed.retry("provider unavailable")))
    if (outcome.status === "PENDING") return yield* JobErrors.JobFailed.retry("the provider has not settled it yet")
    const settled = new StablecoinOperation({
      ...operation,
      status: outcome.status,
      providerStatus: outcome.providerStatus,
      ...(outcome.failureReason === undefined ? {} : { failureReason: outcome.failureReason }),
      updatedAt: yield* DateTime.now
    })
    const minor = StablecoinSupply.baseMinor(settled.amount, stablecoin.value)
    yield* (yield* UnitOfWork.UnitOfWork).transaction(
      Effect.gen(function* () {
        const applied = yield* repo.updateOperation({ platformId, operation: settled }, "PENDING")
        if (!applied) return
        if (settled.status === "COMPLETED" && settled.operationType === "MINT" && minor._tag === "Right") {
          yield* StablecoinSupply.post(platformId, stablecoin.value, settled.id, "MINT", minor.right)
        }
        // A pending burn debited the supply when the provider took it: a burn that then fails gives it back.
        if (settled.status !== "COMPLETED" && settled.operationType === "BURN" && minor._tag === "Right") {
          yield* StablecoinSupply.reverseBurn(platformId, stablecoin.value, settled.id, minor.right)
        }
        yield* (yield* Outbox.Outbox).append(yield* StablecoinEvents.ofOperation(platformId, settled))
      })
    )
  }).pipe(
    Effect.catchTags({
      StoreFailure: () => JobErrors.JobFailed.retry("the store failed while settling a stablecoin operation"),
      InsufficientFunds: () => JobErrors.JobFailed.permanent("a mint cannot overdraw the supply"),
      BalanceLimitExceeded: () => JobErrors.JobFailed.permanent("the supply would pass the ledger's limit")
    })
  )

/** What the settlement handler needs from its environment. */
export type Requirements =
  StablecoinRepo | StablecoinProvider | Ledger.Ledger | Outbox.Outbox | UnitOfWork.UnitOfWork | Ids.Ids
