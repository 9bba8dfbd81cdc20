import { DateTime, Effect, Either, Option, Schema } from "effect"
import { type Job, JobErrors, JobHandler } from "../events/index.js"
import { type PlatformId, UnitOfWork } from "../kernel/index.js"
import { AgentActionId } from "./AgentAction.js"
import { AgentActionRepo } from "./AgentActionRepo.js"
import * as AgentActionState from "./AgentActionState.js"

/** The kind of the job that fails an action still waiting for approval at its `expiresAt`. */
export const kind = "agents.action-expiry"

/** The expiry of `actionId`, due at its `expiresAt` (in the platform's time); one per action. */
export const newJob = (
  platformId: PlatformId.PlatformId,
  actionId: AgentActionId,
  expiresAt: DateTime.Utc
): Job.NewJob => ({
  kind,
  payload: { actionId },
  platformId,
  dueAt: expiresAt,
  deduplicationKey: actionId
})

const decodeActionId = Schema.decodeUnknownOption(AgentActionId)

/**
 * Fails the action if it still waits for approval at its `expiresAt`: `FAILED` with `QUOTE_EXPIRED` (its quote
 * expired) or `APPROVAL_EXPIRED` (a transfer's approval window closed), by a guarded transition from
 * `PENDING_APPROVAL` (a concurrent approve or reject wins or loses as a whole). An action decided already is left
 * as it is: running the job twice changes nothing more.
 */
export const run = (job: Job.Job) =>
  Effect.gen(function* () {
    const actionId = decodeActionId(job.payload["actionId"])
    if (Option.isNone(actionId) || job.platformId === undefined) {
      return yield* JobErrors.JobFailed.permanent("the job names no agent action")
    }
    const platformId = job.platformId
    const actions = yield* AgentActionRepo
    yield* (yield* UnitOfWork.UnitOfWork).transaction(
      Effect.gen(function* () {
        const found = yield* actions.findById(platformId, actionId.value)
        if (Option.isNone(found) || found.value.status !== "PENDING_APPROVAL") return
        const action = found.value
        const now = yield* DateTime.now
        if (DateTime.lessThan(now, action.expiresAt)) {
          return yield* JobErrors.JobFailed.retryAt("not due yet", action.expiresAt)
        }
        const status = Either.getOrThrow(AgentActionState.transition(action.status, "EXPIRE"))
        yield* actions.transition(action.status, {
          ...action,
          status,
          failureReason: action.type === "EXECUTE_QUOTE" ? "QUOTE_EXPIRED" : "APPROVAL_EXPIRED",
          updatedAt: now
        })
      })
    )
  }).pipe(
    Effect.catchTag("StoreFailure", () => JobErrors.JobFailed.retry("the store failed while expiring an agent action"))
  )

/** What the expiry handler needs from its environment (the store's ports). */
export type Requirements = AgentActionRepo | UnitOfWork.UnitOfWork

/** The handler of agent action expiries (kind `agents.action-expiry`); retried with the default policy. */
export const handler = JobHandler.make({ kind, handle: run })
