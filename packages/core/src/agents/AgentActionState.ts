import { Either, Schema } from "effect"
import type { AgentActionStatus } from "./AgentAction.js"

/**
 * The agent action status machine, one row per row of the spec's "Agent action" table (docs/agent-actions.md). The
 * table is total: every (state, event) pair names its next status or `null` (refused); storage persists a decided
 * transition with a guard on the `from` status (`AgentActionRepo.transition`), so of two concurrent decisions
 * exactly one applies.
 */

/** Where an action stands: before it exists (`NONE`), then one of the stored statuses. */
export const AgentActionState = Schema.Literal("NONE", "PENDING_APPROVAL", "APPROVED", "REJECTED", "FAILED")
export type AgentActionState = typeof AgentActionState.Type

/**
 * What can happen to an action:
 * - `SUBMIT_ELIGIBLE`: the agent submits it and its policy lets it execute at once (it executed).
 * - `SUBMIT_NEEDS_APPROVAL`: the agent submits it and it waits for the platform (the webhook goes out).
 * - `APPROVE_EXECUTED`: the platform approves and it executes under the latest state.
 * - `APPROVE_IMPOSSIBLE`: the platform approves but it cannot execute (agent paused or deleted, policy now refusing,
 *   quote expired, payment refused).
 * - `REJECT`: the platform rejects it.
 * - `EXPIRE`: its `expiresAt` passed while it waited.
 */
export const AgentActionEvent = Schema.Literal(
  "SUBMIT_ELIGIBLE",
  "SUBMIT_NEEDS_APPROVAL",
  "APPROVE_EXECUTED",
  "APPROVE_IMPOSSIBLE",
  "REJECT",
  "EXPIRE"
)
export type AgentActionEvent = typeof AgentActionEvent.Type

/** A pair the table refuses (a decision on an action that no longer waits, a submission of a stored action). */
export class InvalidTransition extends Schema.TaggedError<InvalidTransition>()("InvalidTransition", {
  code: Schema.tag("INVALID_STATE_TRANSITION"),
  reason: Schema.String,
  details: Schema.Struct({ state: AgentActionState, event: AgentActionEvent })
}) {
  static of(state: AgentActionState, event: AgentActionEvent): InvalidTransition {
    return new InvalidTransition({
      reason: `An agent action in state ${state} does not take ${event}`,
      details: { state, event }
    })
  }
}

type Row = { readonly [E in AgentActionEvent]: AgentActionStatus | null }

const refused: Row = {
  SUBMIT_ELIGIBLE: null,
  SUBMIT_NEEDS_APPROVAL: null,
  APPROVE_EXECUTED: null,
  APPROVE_IMPOSSIBLE: null,
  REJECT: null,
  EXPIRE: null
}

/**
 * The total table. The spec's rows: (none) + submit, not eligible → PENDING_APPROVAL (with the webhook);
 * PENDING_APPROVAL + approve → APPROVED (executed); + reject → REJECTED; + approve, execution impossible → FAILED.
 * Additions: an eligible submission executes at once (→ APPROVED); a pending action whose `expiresAt` passes fails
 * (→ FAILED, `QUOTE_EXPIRED` or `APPROVAL_EXPIRED`). APPROVED, REJECTED and FAILED are final.
 */
export const transitions: { readonly [S in AgentActionState]: Row } = {
  NONE: { ...refused, SUBMIT_ELIGIBLE: "APPROVED", SUBMIT_NEEDS_APPROVAL: "PENDING_APPROVAL" },
  PENDING_APPROVAL: {
    ...refused,
    APPROVE_EXECUTED: "APPROVED",
    APPROVE_IMPOSSIBLE: "FAILED",
    REJECT: "REJECTED",
    EXPIRE: "FAILED"
  },
  APPROVED: refused,
  REJECTED: refused,
  FAILED: refused
}

/** The status after `event` in `state`, or `InvalidTransition` when the table refuses the pair. */
export const transition = (
  state: AgentActionState,
  event: AgentActionEvent
): Either.Either<AgentActionStatus, InvalidTransition> => {
  const next = transitions[state][event]
  return next === null ? Either.left(InvalidTransition.of(state, event)) : Either.right(next)
}
